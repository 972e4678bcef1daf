#!/usr/bin/env bash
# The fast suites again on the newest Node release line: agent-core, extensions and tools (the
# loop, the hooks, the eight tools on this machine). The whole suite runs on the floor (the
# machine's Node, see scripts/ensure-system.sh); this catches what a newer line changes.
# The line comes from the npm registry's `node` package, installed into a cached prefix under
# node_modules/.cache; the machine's Node is not touched. NODE_LINE=24 picks another line.
# Expects a built workspace (pnpm build, or after pnpm test).
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
NODE_LINE=${NODE_LINE:-26}
prefix="node_modules/.cache/node-$NODE_LINE"
if [ ! -x "$prefix/node_modules/.bin/node" ]; then
  echo "newest-node: installing node@$NODE_LINE from npm into $prefix"
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-save --no-package-lock "node@$NODE_LINE" >/dev/null
fi
export PATH="$PWD/$prefix/node_modules/.bin:$PATH"
echo "newest-node: $(node --version)"
pnpm --workspace-concurrency=1 --filter @tackle/agent-core --filter @tackle/extensions --filter @tackle/tools run test
