#!/usr/bin/env bash
# The README's first command: bring a fresh machine up from nothing, build, and run the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
bash scripts/ensure-system.sh
pnpm install --frozen-lockfile
pnpm build
bash scripts/demo.sh
