import { MAIN_HELP } from "./help.js";
import type { CliIO } from "./io.js";
import {
  EnvironmentError,
  EXIT_ENVIRONMENT,
  EXIT_OK,
  EXIT_TOOL_ERROR,
  EXIT_USAGE,
  UsageError,
} from "./usage-error.js";
import { cliVersion } from "./version.js";

type Command = (argv: string[], io: CliIO) => Promise<number>;

// Each command is imported when it runs: `tackle tool` does not pay for loading the MCP SDK.
const COMMANDS: Record<string, () => Promise<Command>> = {
  tool: async () => (await import("./commands/tool.js")).toolCommand,
  mcp: async () => (await import("./commands/mcp.js")).mcpCommand,
  run: async () => (await import("./commands/run.js")).runCommand,
  audit: async () => (await import("./commands/audit.js")).auditCommand,
};

/**
 * Runs the `tackle` command line and returns the exit code: 0 success, 1 a tool or run error,
 * 2 a usage error, 3 the environment could not be reached or used. Usage and environment
 * errors, and help shown because of an error, go to stderr with what to do next.
 */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    // Help because nothing was asked for: an error, so stderr and exit 2.
    io.stderr(`${MAIN_HELP}\n`);
    return EXIT_USAGE;
  }
  if (command === "--help" || command === "-h" || command === "help") {
    io.stdout(`${MAIN_HELP}\n`);
    return EXIT_OK;
  }
  if (command === "--version" || command === "-v") {
    io.stdout(`${cliVersion()}\n`);
    return EXIT_OK;
  }
  const load = COMMANDS[command];
  try {
    if (!load)
      throw new UsageError(
        `Unknown command "${command}". Commands: tool, mcp, run, audit. See tackle --help.`,
      );
    return await (await load())(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`tackle: ${error.message}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof EnvironmentError) {
      io.stderr(`tackle: ${error.message}\n`);
      return EXIT_ENVIRONMENT;
    }
    const code = (error as { code?: unknown }).code;
    const detail = typeof code === "string" ? ` [${code}]` : "";
    io.stderr(`tackle: ${(error as Error)?.message ?? String(error)}${detail}\n`);
    return EXIT_TOOL_ERROR;
  }
}
