// Serve the tools over MCP: starts `tackle mcp` on a folder the way Claude Desktop, Cursor or any
// MCP client does (a child process speaking MCP on stdio), lists the tools and calls two of them
// with the official MCP SDK. Run it with `npx tsx mcp-client.ts [folder]`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The `tackle` binary of the installed @tackle/cli (what `npx @tackle/cli` would run). */
function tackleBin(): string {
  const manifest = createRequire(import.meta.url).resolve("@tackle/cli/package.json");
  return join(dirname(manifest), JSON.parse(readFileSync(manifest, "utf8")).bin.tackle);
}

const folder = process.argv[2] ?? process.cwd();
// #region client
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [tackleBin(), "mcp", "--cwd", folder, "--read-only"],
});
const client = new Client({ name: "guide", version: "1.0.0" });
await client.connect(transport);
try {
  const { tools } = await client.listTools();
  console.log(`tools: ${tools.map((tool) => tool.name).join(", ")}`);
  const result = await client.callTool({ name: "grep", arguments: { pattern: "TODO" } });
  for (const part of result.content as { type: string; text?: string }[])
    if (part.type === "text") console.log(part.text);
  const missing = await client.callTool({ name: "read", arguments: { path: "no-such-file.md" } });
  console.log(`read a missing file: isError=${missing.isError}`);
} finally {
  await client.close(); // ends the server process
}
// #endregion client
