#!/usr/bin/env bash
# pnpm check: typecheck, lint/format, layering, package metadata, the TypeScript blocks of the
# READMEs and docs/, the contents of the packed tarballs, and publint + are-the-types-wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
echo "== typecheck"; pnpm exec turbo run typecheck --output-logs=errors-only
echo "== lint and format"; pnpm exec biome check .
echo "== layering"; node scripts/layers.mjs
echo "== import cycles"; node scripts/import-cycles.mjs
echo "== package metadata"; node scripts/package-metadata.mjs
echo "== build"; pnpm exec turbo run build --output-logs=errors-only
echo "== README code"; node scripts/readme-code.mjs
echo "== packed tarballs: contents, publint, are-the-types-wrong"; node scripts/pack.mjs
echo "check: ok"
