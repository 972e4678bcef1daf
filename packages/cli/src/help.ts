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
  env: { value: "ENV", text: "local (default) | ssh://user@host[:port][/path] | docker://container[/path]" },
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
  json: { text: "print JSON instead of text" },
  input: { value: "FILE", text: "read the JSON arguments from FILE; - reads them from stdin" },
  list: { text: "list the tools: name, read-only or not, and what each is for" },
  tools: { value: "LIST", text: "comma-separated tool names (default: all available)" },
  "read-only": { text: "serve only read, grep, find and ls" },
  script: { value: "FILE", text: "the script to run (required)" },
  help: { text: "show this help" },
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

const ENV_FORMS = "ENV is local (default), ssh://user@host[:port][/path] or docker://container[/path].";

/** `tackle --help`. */
export const MAIN_HELP = `tackle — the Tackle tools from a terminal or an MCP client

Usage:
  tackle tool <name> '<json args>' [options]    run one tool and print what the model would see
  tackle tool --list                            list the tools
  tackle tool <name> --help                     a tool's parameters, from its schema
  tackle mcp [options]                          serve the tools over MCP on stdio
  tackle run --script FILE [options]            run the agent loop with the faux model

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

${formatOptions(options, { json: "print the whole outcome {content, details, isError, errorCode} as JSON (with --list: the tools and their schemas)" })}

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

Serves the tools over MCP on stdio (only protocol goes to stdout; logs go to stderr).

${formatOptions(options, { cwd: "workspace root and working directory (default: the current directory)" })}

${ENV_FORMS}

${EXIT_CODES_HELP}

Example client configuration (Claude Desktop, Cursor and most MCP clients):
  {"mcpServers": {"tackle": {"command": "npx", "args": ["-y", "@tackle/cli", "mcp", "--cwd", "/path/to/project"]}}}`;
}

/** `tackle run --help`. */
export function runHelp(options: CommandOptions): string {
  return `Usage: tackle run --script FILE [options]

Runs the agent loop with the faux model on a scripted conversation and streams each event
(tool calls, results, timing). The script is JSON: {"prompt": "...", "replies": [...]}; each
reply is {"text": "..."} and/or {"toolCalls": [{"name": "grep", "arguments": {...}}]}.
When stderr is a terminal, a status line there shows what the run waits for (model or tool)
and for how long.

${formatOptions(options, { json: "print the events as JSON lines" })}

${ENV_FORMS}

${EXIT_CODES_HELP.replace("the tool reported an error (its message is on stdout, as the model reads it)", "the model's stream ended in an error (for example the script ran out)")}

Example:
  tackle run --script examples/demo/script.json --cwd /tmp/demo-workspace`;
}
