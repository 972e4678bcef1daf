import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ALL_TOOL_NAMES, READ_ONLY_TOOL_NAMES, type ToolName } from "@tackle/tools";
import { detectPowershell } from "@tackle/tools/shell";
import { mcpHelp } from "../help.js";
import type { CliIO } from "../io.js";
import { createMcpServer } from "../mcp-server.js";
import { ENV_OPTIONS, environmentOptionsOf, parseCommandArgs } from "../parse.js";
import { openCliSession, parseToolNames } from "../session.js";
import { EXIT_OK, UsageError } from "../usage-error.js";
import { VERSION } from "../version.js";

/** The flags of `tackle mcp`. */
export const MCP_OPTIONS = {
  ...ENV_OPTIONS,
  tools: { type: "string" },
  "read-only": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** `tackle mcp`: serves the tools over MCP on stdio until the client disconnects. */
export async function mcpCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    () => parseArgs({ args: argv, allowPositionals: true, options: MCP_OPTIONS }),
    "mcp",
  );
  if (values.help) {
    io.stdout(`${mcpHelp(MCP_OPTIONS)}\n`);
    return EXIT_OK;
  }
  if (positionals.length > 0)
    throw new UsageError(`Unexpected argument "${positionals[0]}". See tackle mcp --help.`);
  const names: ToolName[] = parseToolNames(
    values.tools,
    values["read-only"] ? READ_ONLY_TOOL_NAMES : ALL_TOOL_NAMES,
  );
  if (values["read-only"]) {
    const writers = names.filter((name) => !(READ_ONLY_TOOL_NAMES as readonly string[]).includes(name));
    if (writers.length > 0)
      throw new UsageError(`--read-only cannot serve ${writers.join(", ")}. Drop them from --tools.`);
  }
  const session = await openCliSession(values.env, names, environmentOptionsOf(values));
  if (values.tools === undefined && names.includes("powershell")) {
    // Offer powershell only where it can run, unless the user asked for it by name.
    const pwsh = await detectPowershell(session.env.operations, { cwd: session.env.cwd });
    if (!pwsh.available) {
      session.definitions.delete("powershell");
      session.tools.delete("powershell");
    }
  }
  const log = (message: string) => io.stderr(`tackle mcp: ${message}\n`);
  const server = createMcpServer(session, { version: VERSION, log });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
    io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.connect(transport);
  log(`serving ${[...session.tools.keys()].join(", ")} in ${session.env.cwd} (${session.env.operations.id})`);
  await closed;
  await server.close().catch(() => {});
  await session.close({ dropArtifacts: true });
  return EXIT_OK;
}
