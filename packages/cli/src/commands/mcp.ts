import { parseArgs } from "node:util";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { auditFileOf } from "../audit-file.js";
import { mcpHelp } from "../help.js";
import type { CliIO } from "../io.js";
import { createMcpServer } from "../mcp-server.js";
import { AUDIT_OPTIONS, ENV_OPTIONS, environmentOptionsOf, parseCommandArgs } from "../parse.js";
import { chooseToolNames, dropUnavailablePowershell, openCliSession } from "../session.js";
import { EXIT_OK, UsageError } from "../usage-error.js";
import { cliVersion } from "../version.js";

/** The flags of `tackle mcp`. */
export const MCP_OPTIONS = {
  ...ENV_OPTIONS,
  ...AUDIT_OPTIONS,
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
  const session = await openCliSession(
    values.env,
    chooseToolNames(values),
    environmentOptionsOf(values),
    auditFileOf(values.audit),
  );
  // Offer powershell only where it can run, unless the user asked for it by name.
  await dropUnavailablePowershell(session, values.tools !== undefined);
  const log = (message: string) => io.stderr(`tackle mcp: ${message}\n`);
  // One server per connection; the SDK's entry negotiates the protocol revision (2026-07-28, or
  // a 2025-era client's initialize) on the connection's opening message.
  const handle = serveStdio(() => createMcpServer(session, { version: cliVersion(), log }), {
    onerror: (error) => log(`protocol error: ${error.message}`),
  });
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
    io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  log(`serving ${[...session.tools.keys()].join(", ")} in ${session.env.cwd} (${session.env.operations.id})`);
  await closed;
  await handle.close().catch(() => {});
  await session.close({ dropArtifacts: true });
  return EXIT_OK;
}
