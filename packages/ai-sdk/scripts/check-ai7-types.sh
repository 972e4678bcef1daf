#!/usr/bin/env bash
# Type-checks @tackle/ai-sdk against `ai` 7 without installing it (ai 7 needs Node 22; this repo
# runs on Node 20): packs ai 7 and the packages its types import from the registry into a temp
# dir, then compiles (1) this package's src and (2) scripts/ai7-consumer.ts, a consumer of the
# built package that uses @ai-sdk/anthropic 4 (specification v4) models, against them.
# Run after `pnpm build`:  bash packages/ai-sdk/scripts/check-ai7-types.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tackle-ai7-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
unpack() { # spec, name
  local file
  file=$(npm pack "$1" --silent | tail -1)
  mkdir -p "node_modules/$2"
  tar -xzf "$file" -C "node_modules/$2" --strip-components=1
  rm "$file"
}
unpack ai@7 ai
version=$(node -p 'require("./node_modules/ai/package.json").version')
deps() { node -p "const p=require('./node_modules/$1/package.json'); Object.entries(p.dependencies||{}).map(([n,v])=>n+'@'+v).join(' ')"; }
for spec in $(deps ai); do unpack "$spec" "${spec%@*}"; done
for spec in $(deps @ai-sdk/provider-utils) $(deps @ai-sdk/gateway) $(deps @ai-sdk/provider); do
  [ -d "node_modules/${spec%@*}" ] || unpack "$spec" "${spec%@*}"
done
unpack @ai-sdk/anthropic@4 @ai-sdk/anthropic
unpack @opentelemetry/api@1 @opentelemetry/api
unpack @types/json-schema @types/json-schema
for pkg in ai-sdk agent-core extensions operations; do
  mkdir -p "node_modules/@tackle/$pkg"
  cp -r "$root/packages/$pkg/dist" "$root/packages/$pkg/package.json" "node_modules/@tackle/$pkg/"
done
mkdir -p node_modules/@sinclair node_modules/@types
ln -s "$(readlink -f "$root/packages/agent-core/node_modules/@sinclair/typebox")" node_modules/@sinclair/typebox
ln -s "$(readlink -f "$root/node_modules/@types/node")" node_modules/@types/node
ln -s "$(readlink -f "$here/node_modules/zod")" node_modules/zod
echo '{"type":"module"}' > package.json
cp -r "$here/src" src
cp "$here/scripts/ai7-consumer.ts" consumer.ts
common='"target":"ES2022","lib":["ES2022"],"module":"NodeNext","moduleResolution":"NodeNext","strict":true,"noEmit":true,"types":["node"]'
echo "{\"compilerOptions\":{$common,\"noUncheckedIndexedAccess\":true,\"noImplicitOverride\":true,\"verbatimModuleSyntax\":true,\"skipLibCheck\":true},\"include\":[\"src\"]}" > tsconfig.src.json
echo "{\"compilerOptions\":{$common,\"lib\":[\"ES2022\",\"DOM\"],\"skipLibCheck\":false},\"files\":[\"consumer.ts\"]}" > tsconfig.consumer.json
tsc="node $root/node_modules/typescript/bin/tsc"
$tsc -p tsconfig.src.json && echo "ai $version: src type-checks"
$tsc -p tsconfig.consumer.json && echo "ai $version: a consumer of the built package type-checks (skipLibCheck off)"
