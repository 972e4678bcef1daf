#!/usr/bin/env bash
# The main job: `tackle run` drives the agent loop with the faux model against a temporary copy
# of examples/demo/workspace: it greps, reads, edits a file and runs the project's test with bash.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/tackle-demo-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -R examples/demo/workspace/. "$work/"
echo "== tackle run --script examples/demo/script.json --cwd $work"
node packages/cli/dist/bin.js run --script examples/demo/script.json --cwd "$work"
echo
echo "== the same tools, one call at a time: tackle tool read"
node packages/cli/dist/bin.js tool read '{"path":"src/greet.mjs"}' --cwd "$work"
echo
echo "Next: serve the tools to any MCP client with: node $(pwd)/packages/cli/dist/bin.js mcp --cwd /path/to/project"
