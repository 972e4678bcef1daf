/**
 * `@tackle/cli/mcp`: the MCP server behind `tackle mcp`, for hosts that serve Tackle tools over
 * their own MCP transport. Kept off the root entry: its types are the MCP SDK's, whose
 * declarations need the DOM lib (or `skipLibCheck`) in the consumer's tsconfig.
 */
export { createMcpServer, type McpServerOptions, type McpSession, toMcpResult } from "./mcp-server.js";
