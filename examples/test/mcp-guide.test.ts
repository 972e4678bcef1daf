// The MCP guide's client against this repository's `tackle mcp` (a real child process on stdio).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGuide } from "./run-guide.js";

const repo = resolve(import.meta.dirname, "..", "..");

/** The configuration the guide shows for use before the first release (marked in the page). */
async function guideConfig(): Promise<{ command: string; args: string[] }> {
  const page = await readFile(join(repo, "docs", "guides", "mcp.md"), "utf8");
  const block = /<!-- mcp-guide: config -->\n```json\n([\s\S]*?)\n```/.exec(page)?.[1];
  if (block === undefined) throw new Error("docs/guides/mcp.md: no marked configuration");
  const config = JSON.parse(block) as { mcpServers: Record<string, { command: string; args: string[] }> };
  const server = config.mcpServers.tackle;
  if (server === undefined) throw new Error("docs/guides/mcp.md: no tackle server");
  return server;
}

describe("serve the tools over MCP", () => {
  let folder: string;
  let home: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "tackle-guide-mcp-"));
    home = await mkdtemp(join(tmpdir(), "tackle-guide-home-"));
    await writeFile(join(folder, "notes.md"), "TODO: ship the docs\n");
  });
  afterAll(async () => {
    for (const dir of [folder, home]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists the read-only tools, calls grep, and gets a failed read as a result", async () => {
    // The MCP client starts the server with a minimal environment (HOME, PATH, ...): a HOME of
    // its own keeps the server's default audit file out of the real home directory.
    const { stdout } = await runGuide("mcp-client", { args: [folder], env: { HOME: home } });
    expect(stdout).toContain("tools: read, grep, find, ls");
    expect(stdout).toContain("notes.md:1: TODO: ship the docs");
    expect(stdout).toContain("read a missing file: isError=true");
    // The server recorded both calls in its default audit file, under that HOME.
    const audit = await readFile(join(home, ".local", "state", "tackle", "audit.jsonl"), "utf8");
    const tools = audit
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind: string; tool?: string })
      .filter((event) => event.kind === "intent")
      .map((event) => event.tool);
    expect(tools).toEqual(["grep", "read"]);
  });

  it("starts from the configuration the guide shows, with this clone and folder as its paths", async () => {
    const { command, args } = await guideConfig();
    expect(command).toMatch(/^\/.*node$/);
    for (const arg of args.filter((a) => a.includes("/"))) expect(arg).toMatch(/^\//); // absolute
    const transport = new StdioClientTransport({
      command: process.execPath, // the guide's "/usr/local/bin/node": the Node running this test
      args: args.map((arg) => arg.replace("/home/me/tackle", repo).replace("/home/me/project", folder)),
      env: { HOME: home, PATH: process.env.PATH ?? "" },
      stderr: "pipe",
    });
    const client = new Client({ name: "guide-config", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["read", "grep", "ls", "bash"]));
      const listed = await client.callTool({ name: "ls", arguments: { path: "." } });
      expect(JSON.stringify(listed.content)).toContain("notes.md");
    } finally {
      await client.close();
    }
  });
});
