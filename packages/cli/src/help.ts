/** Help texts, one per command. Examples are real commands a newcomer can paste. */
import type { CommandOptions } from "./parse.js";
import { EXIT_CODES_HELP } from "./usage-error.js";

/** What `--help` says about one flag: its value placeholder (for string flags) and one line. */
export interface OptionHelp {
  value?: string;
  text: string;
}

/**
 * The help line of every flag, by name. A command's help lists each flag its `parseArgs` call
 * accepts from this table (see {@link formatOptions}), so a new flag cannot go undocumented
 * without the help test noticing.
 */
export const OPTION_HELP: Record<string, OptionHelp> = {
  cwd: {
    value: "DIR",
    text: "working directory (default: the current directory; remote: the URL's path, else the remote home). A relative DIR is resolved on the environment's side",
  },
  env: {
    value: "ENV",
    text: "local (default) | ssh://user@host[:port][/path] | docker://container[/path] | k8s://[context/]namespace/pod[/container]",
  },
  identity: { value: "FILE", text: "ssh private key (default: the ssh agent in SSH_AUTH_SOCK)" },
  "passphrase-env": {
    value: "VAR",
    text: "name of the environment variable that holds the passphrase of an encrypted --identity key",
  },
  "known-hosts": {
    value: "FILE",
    text: "known_hosts file the ssh host key is checked against (default: ~/.ssh/known_hosts)",
  },
  "host-key": {
    value: "SHA256:...",
    text: "trust the ssh server with this key fingerprint instead of a known_hosts file (repeatable)",
  },
  "connect-timeout": {
    value: "SECONDS",
    text: "give up connecting to the ssh server (or the Docker engine over ssh) after this long (default 20)",
  },
  "docker-host": {
    value: "URL",
    text: "Docker engine: unix:///path, tcp://host:port, ssh://user@host[:port][/socket] (default: DOCKER_HOST, then DOCKER_CONTEXT, then /var/run/docker.sock)",
  },
  sandbox: {
    text: "run every bash and powershell command in an OS sandbox: writes only in the workspace and a private /tmp, secrets hidden, no network (Linux: bubblewrap; fails where it cannot run)",
  },
  "no-sandbox": { text: "run commands without the sandbox" },
  "sandbox-network": {
    value: "on|off",
    text: "the sandbox's network: off (default) or on (implies --sandbox)",
  },
  "sandbox-allow": {
    value: "HOST",
    text: "let sandboxed commands reach HOST (host, *.domain, host:port) through the sandbox's HTTP proxy (repeatable; implies --sandbox)",
  },
  "sandbox-write": {
    value: "PATH",
    text: "let sandboxed commands write PATH too (repeatable; implies --sandbox)",
  },
  json: { text: "print JSON instead of text" },
  input: { value: "FILE", text: "read the JSON arguments from FILE; - reads them from stdin" },
  list: { text: "list the tools: name, read-only or not, and what each is for" },
  tools: {
    value: "LIST",
    text: "comma-separated tool names (default: all available but apply_patch, which does what edit and write do as a V4A patch)",
  },
  "read-only": { text: "serve only read, grep, find and ls" },
  "tool-format": {
    value: "auto|native|tackle",
    text: "native: the provider's own tools (OpenAI: apply_patch and shell; Anthropic: text_editor_20250728 and bash_20250124) in place of read, write, edit and bash; tackle: Tackle's tools; auto (default): native for models trained on them (gpt-5.1 and later, Claude 4 and later) unless --tools or --read-only chose the tools",
  },
  script: { value: "FILE", text: "run the faux model on this scripted conversation instead of a real model" },
  model: {
    value: "PROVIDER:ID",
    text: "the model, e.g. anthropic:claude-sonnet-4-5, openai:gpt-4.1, google:gemini-2.5-pro, openai-compatible:qwen3 (with --base-url), or any @ai-sdk/<provider> package",
  },
  "base-url": {
    value: "URL",
    text: "the provider's API address (a proxy, or a local server such as Ollama)",
  },
  "max-turns": { value: "N", text: "ask the model at most N times (default 50 with --model)" },
  help: { text: "show this help" },
  audit: {
    value: "FILE",
    text: "record every tool call (intent, decisions, process, output, end, changes) in this JSONL file; off records nothing (default: $TACKLE_AUDIT_FILE, else $XDG_STATE_HOME/tackle/audit.jsonl, else ~/.local/state/tackle/audit.jsonl)",
  },
  since: {
    value: "WHEN",
    text: "only calls active since then: 30s, 10m, 2h, 1d, or a date such as 2026-12-01T18:00Z",
  },
};

/** Help lines wrap at this width. */
const HELP_WIDTH = 100;

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The "Options:" lines for every flag in `options`, in their order, from {@link OPTION_HELP}. */
export function formatOptions(options: CommandOptions, overrides: Record<string, string> = {}): string {
  const flags = Object.entries(options).map(([name, config]) => {
    const help = OPTION_HELP[name];
    const short = config.short ? `-${config.short}, ` : "";
    return {
      flag: `${short}--${name}${config.type === "string" ? ` ${help?.value ?? "VALUE"}` : ""}`,
      text: overrides[name] ?? help?.text ?? "",
    };
  });
  const column = Math.max(...flags.map(({ flag }) => flag.length)) + 4;
  const lines = flags.flatMap(({ flag, text }) =>
    wrap(text, HELP_WIDTH - column).map(
      (part, i) => `${i === 0 ? `  ${flag}`.padEnd(column) : " ".repeat(column)}${part}`,
    ),
  );
  return `Options:\n${lines.join("\n")}`;
}

const ENV_FORMS =
  "ENV is local (default), ssh://user@host[:port][/path], docker://container[/path] or k8s://[context/]namespace/pod[/container].";

/** `tackle --help`. */
export const MAIN_HELP = `tackle — the Tackle tools from a terminal, an MCP client or a real model

Usage:
  tackle tool <name> '<json args>' [options]       run one tool and print what the model would see
  tackle tool --list                               list the tools
  tackle tool <name> --help                        a tool's parameters, from its schema
  tackle mcp [options]                             serve the tools over MCP on stdio
  tackle run --model PROVIDER:ID "task" [options]  run the agent loop on a real model
  tackle run --script FILE [options]               run the agent loop with the faux model
  tackle audit list [--since WHEN]                 the recorded tool calls
  tackle audit show <callId|last>                  one call's evidence: intent, decisions, process, output, end, changes

${ENV_FORMS}
Run "tackle <command> --help" for each command's flags and examples.

${EXIT_CODES_HELP}`;

/** `tackle tool --help`, for the flags `toolCommand` parses. */
export function toolHelp(options: CommandOptions): string {
  return `Usage:
  tackle tool <name> '<json args>' [options]
  tackle tool <name> - [options]          (the JSON arguments from stdin)
  tackle tool --list [--json]
  tackle tool <name> --help

Runs one tool through the same path the agent uses and prints what the model would see.

${formatOptions(options, { json: "print the whole outcome {content, details, isError, errorCode} as one JSON object on stdout, usage and environment errors included (with --list: the tools and their schemas)" })}

${ENV_FORMS}

${EXIT_CODES_HELP}

Examples:
  tackle tool ls '{"path":"."}'
  tackle tool grep '{"pattern":"TODO","glob":"*.ts"}' --cwd ~/project
  tackle tool read '{"path":"README.md","limit":20}' --json
  tackle tool edit - < edit.json
  tackle tool bash '{"command":"uname -a"}' --env ssh://me@build.example.com/srv/app
  tackle tool bash '{"command":"uname -a"}' --env docker://sandbox/work`;
}

/** `tackle mcp --help`. */
export function mcpHelp(options: CommandOptions): string {
  return `Usage: tackle mcp [options]

Serves the tools over MCP on stdio (only protocol goes to stdout; logs go to stderr): protocol
revision 2026-07-28, or the 2025 revision of a client that opens with initialize.

${formatOptions(options, { cwd: "workspace root and working directory (default: the current directory)" })}

${ENV_FORMS}

${EXIT_CODES_HELP}

Example client configuration (Claude Desktop, Cursor and most MCP clients):
  {"mcpServers": {"tackle": {"command": "npx", "args": ["-y", "@tackle/cli", "mcp", "--cwd", "/path/to/project"]}}}`;
}

/** `tackle run --help`. */
export function runHelp(options: CommandOptions): string {
  return `Usage:
  tackle run --model PROVIDER:ID "task" [options]
  tackle run --model PROVIDER:ID - [options]     (the task from stdin)
  tackle run --script FILE [options]

Runs the agent loop with the tools in the working directory and streams what happens: the
model's text as it arrives, each tool call and result with its timing, and a summary with the
tokens used. Ctrl-C aborts the model request and the running tool (its whole process tree),
then prints the summary.

--model takes the provider's key from its usual environment variable: OPENAI_API_KEY,
ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, MISTRAL_API_KEY, GROQ_API_KEY, XAI_API_KEY,
DEEPSEEK_API_KEY, AI_GATEWAY_API_KEY (gateway:ID); openai-compatible servers get
OPENAI_COMPATIBLE_API_KEY when it is set. The provider's AI SDK package is loaded when used.

Models trained on their provider's own tools get them (--tool-format auto, the default): OpenAI
gpt-5.1 and later get apply_patch and shell, Anthropic's Claude 4 models and later the text
editor (text_editor_20250728) and bash (bash_20250124), in place of read, write, edit and bash;
grep, find and ls stay. They run on the same engines (path policy, stale-read check, atomic
writes, the shell pipeline, --sandbox, audit). --tool-format tackle gives Tackle's tools to any
model; --tool-format native gives an openai or anthropic model its set whatever its id.

--script runs the faux model instead: {"prompt": "...", "replies": [...]}; each reply is
{"text": "..."} and/or {"toolCalls": [{"name": "grep", "arguments": {...}}]}.
When stderr is a terminal, a status line there shows what the run waits for (model or tool)
and for how long.

${formatOptions(options, {
  json: "print the events as JSON lines",
  "read-only": "give the model only read, grep, find and ls",
  tools:
    "comma-separated tool names the model gets (default: all available but apply_patch; see --tool-format)",
})}

${ENV_FORMS}

${EXIT_CODES_HELP.replace("the tool reported an error (its message is on stdout, as the model reads it)", "the run ended in a model error, was stopped by --max-turns or interrupted")}

Examples:
  tackle run --model anthropic:claude-sonnet-4-5 "Fix the failing test" --cwd ~/project
  tackle run --model openai:gpt-4.1 "Explain what src/ does" --read-only
  tackle run --model openai:gpt-5.1 "Fix the failing test" --tool-format tackle
  tackle run --model openai-compatible:qwen3 --base-url http://127.0.0.1:11434/v1 "Add a test"
  tackle run --script examples/demo/script.json --cwd /tmp/demo-workspace`;
}

/** `tackle audit --help`. */
export function auditHelp(options: CommandOptions): string {
  return `Usage:
  tackle audit list [--since WHEN] [--audit FILE] [--json]
  tackle audit show <callId|last> [--audit FILE] [--json]

Reads the audit trail that tool, run and mcp write (one JSON event per line, secrets redacted).
list prints one line per call: start, call id, tool, who asked (user or model), how it ended,
how long. show prints the six pieces of one call: 1 intent, 2 decisions (validation, hooks,
workspace and command policy), 3 spawn (shell, cwd, timeout, environment names, job id),
4 output (bytes, timing, what the model saw, the artifact and how to read it), 5 end (status,
exit code, cleanup), 6 changes (files, or a bounded before/after snapshot for shell commands).
A call whose end is missing was cut off: its host stopped during the call.

${formatOptions(options, { audit: "the audit file to read (default: $TACKLE_AUDIT_FILE, else $XDG_STATE_HOME/tackle/audit.jsonl, else ~/.local/state/tackle/audit.jsonl)", json: "print JSON (list: one call per line; show: the whole record)" })}

Exit codes:
  0  success (list: also when nothing was recorded yet)
  1  show: no such call id in the file, or no audit file
  2  usage error: unknown action or flag, a bad --since

Examples:
  tackle audit list --since 1h
  tackle audit show last
  tackle audit show tool-m3x2k1-4f2a9c --audit ./audit.jsonl`;
}
