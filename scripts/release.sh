#!/usr/bin/env bash
# pnpm release [--dry-run]: refuses unless every package is versioned (no pending changesets, no
# 0.0.0), builds, runs every check, packs each package once and publishes those tarballs to npm
# (only versions the registry does not have yet), tagging each <name>@<version>. The dry run is
# the same path with `npm publish --dry-run` of the same tarballs: nothing uploaded, no tags, and
# an unreachable registry is reported instead of waited for. TACKLE_RELEASE_ROOT names another
# checkout to release (the tests use it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "${TACKLE_RELEASE_ROOT:-$here/..}"
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
mode=()
case "${1:-}" in
  "") ;;
  --dry-run) mode=(--dry-run) ;;
  *) echo "usage: pnpm release [--dry-run]" >&2; exit 2 ;;
esac
node "$here/release.mjs" preflight
echo "== build"; pnpm build
echo "== check"; pnpm check
echo "== publish"; node "$here/release.mjs" publish "${mode[@]}"
