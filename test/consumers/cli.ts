// cli: the package's programmatic entry (the binary itself is run by the test), and the MCP
// server's subpath, whose declarations (the MCP SDK's) must also compile under the strict tsconfig.
import { EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, parseEnvUrl } from "@tackle/cli";
import type { createMcpServer } from "@tackle/cli/mcp";

/** The SDK's server type, named so the compiler reads its declarations. */
export type TackleMcpServer = ReturnType<typeof createMcpServer>;

const spec = parseEnvUrl("ssh://me@devbox:2222/srv/app");
console.log(JSON.stringify({ kind: spec.kind, codes: [EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE] }));
