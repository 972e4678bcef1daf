/** Help texts, one per command. Examples are real commands a newcomer can paste. */
export const HELP = {
  main: `tackle — the Tackle tools from a terminal or an MCP client

Usage:
  tackle tool <name> '<json args>' [--cwd DIR] [--env ENV] [--json]
  tackle mcp [--cwd DIR] [--env ENV] [--tools read,grep,...] [--read-only]
  tackle run --script FILE [--cwd DIR] [--env ENV]

Commands:
  tool   run one tool and print what the model would see
  mcp    serve the tools over MCP on stdio
  run    run the agent loop with the faux model on a script

ENV is local (default), ssh://user@host[:port]/path or docker://container[/path].
Run "tackle <command> --help" for examples.`,
  tool: `tackle tool <name> '<json args>' [options]

Runs one tool through the same path the agent uses and prints what the model would see.
Exit code: 0 success, 1 the tool reported an error, 2 usage error.

Options:
  --cwd DIR          working directory (default: current directory)
  --env ENV          local | ssh://user@host[:port]/path | docker://container[/path]
  --json             print the whole outcome {content, details, isError} as JSON
  --identity FILE    ssh private key (default: the ssh agent)
  --known-hosts FILE ssh known_hosts file (default: ~/.ssh/known_hosts)

Examples:
  tackle tool ls '{"path":"."}'
  tackle tool grep '{"pattern":"TODO","glob":"*.ts"}' --cwd ~/project
  tackle tool read '{"path":"README.md","limit":20}' --json
  tackle tool bash '{"command":"uname -a"}' --env docker://sandbox/work`,
  mcp: `tackle mcp [options]

Serves the tools over MCP on stdio (only protocol goes to stdout; logs go to stderr).

Options:
  --cwd DIR          workspace root and working directory (default: current directory)
  --env ENV          local | ssh://user@host[:port]/path | docker://container[/path]
  --tools LIST       comma-separated tool names (default: all available)
  --read-only        only read, grep, find and ls
  --identity FILE    ssh private key (default: the ssh agent)
  --known-hosts FILE ssh known_hosts file

Example client configuration (Claude Desktop, Cursor and most MCP clients):
  {"mcpServers": {"tackle": {"command": "npx", "args": ["-y", "@tackle/cli", "mcp", "--cwd", "/path/to/project"]}}}`,
  run: `tackle run --script FILE [options]

Runs the agent loop with the faux model on a scripted conversation and streams each event
(tool calls, results, timing). The script is JSON: {"prompt": "...", "replies": [...]}; each
reply is {"text": "..."} and/or {"toolCalls": [{"name": "grep", "arguments": {...}}]}.

Options:
  --script FILE      the script (required)
  --cwd DIR          working directory (default: current directory)
  --env ENV          local | ssh://user@host[:port]/path | docker://container[/path]
  --json             print events as JSON lines

Example:
  tackle run --script examples/demo/script.json --cwd /tmp/demo-workspace`,
} as const;
