// `createMcpServer` in a host's own process (`@tackle/cli/mcp`): the `outputSchemas` option,
// with the SDK 2 client over the SDK's in-memory transport pair.
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { Type } from "@tackle/agent-core/typebox";
import { createTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMcpServer, MCP_OUTPUT_SCHEMAS, type McpServerOptions } from "../src/mcp.js";
import { tempDir } from "./helpers.js";

let workspace: { dir: string; cleanup: () => void };
const closers: (() => Promise<void>)[] = [];

beforeEach(() => {
  workspace = tempDir();
  fs.writeFileSync(path.join(workspace.dir, "notes.md"), "TODO: ship\n");
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  workspace.cleanup();
});

async function serve(options: Partial<McpServerOptions> = {}) {
  const context = createLocalToolContext({ cwd: workspace.dir });
  const tools = new Map(Object.entries(createTools({ context, names: ["read", "grep", "ls"] })));
  const server = createMcpServer({ context, tools }, { version: "1.0.0", ...options });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "host-test", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

describe("createMcpServer in a host", () => {
  it("by default describes Tackle's tools with MCP_OUTPUT_SCHEMAS", async () => {
    const client = await serve();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "grep")?.outputSchema).toEqual(
      JSON.parse(JSON.stringify(MCP_OUTPUT_SCHEMAS.grep)),
    );
    const grep = await client.callTool({ name: "grep", arguments: { pattern: "TODO" } });
    expect(grep.structuredContent).toMatchObject({ pattern: "TODO", matches: 1 });
  });

  it("outputSchemas: {} lists no output schema and sends no structured content", async () => {
    const client = await serve({ outputSchemas: {} });
    const { tools } = await client.listTools();
    expect(tools.filter((tool) => tool.outputSchema !== undefined)).toEqual([]);
    const grep = await client.callTool({ name: "grep", arguments: { pattern: "TODO" } });
    expect(grep.isError).toBeFalsy();
    expect(grep.structuredContent).toBeUndefined();
  });

  it("a host's own schema picks only the fields it names", async () => {
    const client = await serve({ outputSchemas: { ls: Type.Object({ total: Type.Integer() }) } });
    const ls = await client.callTool({ name: "ls", arguments: { path: "." } });
    expect(ls.structuredContent).toEqual({ total: 1 });
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "grep")?.outputSchema).toBeUndefined();
  });
});
