#!/usr/bin/env bash
# The main job: the agent loop with the faux model, calling real tools on a real workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
node examples/loop-demo.mjs
