#!/usr/bin/env bash
# pnpm release: build, check, then publish every package whose version is not on npm yet.
# `pnpm release --dry-run` packs and rehearses the publish without uploading anything.
set -euo pipefail
cd "$(dirname "$0")/.."
pnpm build
pnpm check
if [ "${1:-}" = "--dry-run" ]; then
  pnpm -r --filter './packages/*' publish --dry-run --no-git-checks --access public
else
  pnpm exec changeset publish
fi
