/**
 * `@tackle/cli/mcp`: the MCP server behind `tackle mcp`, for hosts that serve Tackle tools over
 * their own MCP transport. Kept off the root entry: its types are the MCP SDK's.
 */
export { MCP_OUTPUT_SCHEMAS, structuredContentOf } from "./mcp-output.js";
export {
  createMcpServer,
  MCP_ERROR_CODE_KEY,
  MCP_ERROR_CODES_KEY,
  type McpServerOptions,
  type McpSession,
  toMcpResult,
} from "./mcp-server.js";
