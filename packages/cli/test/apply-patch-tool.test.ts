// apply_patch through the CLI like any other tool: listed, documented by its own example, run by
// `tackle tool apply_patch` on real files, served by `tackle mcp --tools apply_patch` (the spawned
// binary, a real MCP client over stdio), and left out of the default set.
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, EXIT, killIfRunning, tackle, tempDir } from "./helpers.js";

const PATCH = [
  "*** Begin Patch",
  "*** Update File: src/app.ts",
  "@@",
  "-export const answer = 41;",
  "+export const answer = 42;",
  "*** Add File: notes.md",
  "+- ship it",
  "*** End Patch",
].join("\n");

let workspace: { dir: string; cleanup: () => void };
let transport: StdioClientTransport | undefined;
let client: Client | undefined;
beforeEach(() => {
  workspace = tempDir();
  fs.mkdirSync(path.join(workspace.dir, "src"));
  fs.writeFileSync(path.join(workspace.dir, "src", "app.ts"), "export const answer = 41;\n");
});
afterEach(async () => {
  const pid = transport?.pid;
  await client?.close();
  if (pid) killIfRunning(pid);
  client = undefined;
  transport = undefined;
  workspace.cleanup();
});

const file = (name: string) => fs.readFileSync(path.join(workspace.dir, name), "utf8");

describe("apply_patch in the CLI", () => {
  it("tackle tool --list and --help show it; its example is a whole patch", async () => {
    const list = await tackle(["tool", "--list"]);
    expect(list.code).toBe(EXIT.ok);
    expect(list.stdout).toMatch(/^ {2}apply_patch +writes +Apply a patch to files/m);
    const help = await tackle(["tool", "apply_patch", "--help"]);
    expect(help.code).toBe(EXIT.ok);
    expect(help.stdout).toContain("*** Begin Patch");
    expect(help.stdout).toContain("tackle tool apply_patch");
  });

  it("tackle tool apply_patch applies a patch over two files, and refuses a stale hunk changing nothing", async () => {
    const applied = await tackle([
      "tool",
      "apply_patch",
      JSON.stringify({ input: PATCH }),
      "--cwd",
      workspace.dir,
    ]);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(EXIT.ok);
    expect(applied.stdout).toContain("Applied the patch: 2 files changed.");
    expect(file("src/app.ts")).toBe("export const answer = 42;\n");
    expect(file("notes.md")).toBe("- ship it\n");

    const stale = PATCH.replace("-export const answer = 41;", "-export const answer = 40;").replace(
      "*** Add File: notes.md",
      "*** Add File: more.md",
    );
    const refused = await tackle([
      "tool",
      "apply_patch",
      JSON.stringify({ input: stale }),
      "--cwd",
      workspace.dir,
    ]);
    expect(refused.code).toBe(EXIT.toolError);
    expect(refused.stdout).toContain("hunk 1 (patch line 3) of src/app.ts");
    expect(fs.existsSync(path.join(workspace.dir, "more.md"))).toBe(false);
  });

  it("tackle mcp serves it with --tools apply_patch, and not by default", async () => {
    const connect = async (args: string[]) => {
      const next = new Client({ name: "tackle-test", version: "1.0.0" }, { capabilities: {} });
      const stdio = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "mcp", "--cwd", workspace.dir, ...args],
        stderr: "pipe",
      });
      await next.connect(stdio);
      return { next, stdio };
    };
    const plain = await connect([]);
    const names = (await plain.next.listTools()).tools.map((tool) => tool.name);
    const plainPid = plain.stdio.pid;
    await plain.next.close();
    if (plainPid) killIfRunning(plainPid);
    expect(names).toContain("edit");
    expect(names).not.toContain("apply_patch");

    ({ next: client, stdio: transport } = await connect(["--tools", "read,apply_patch"]));
    const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(listed).toEqual(["apply_patch", "read"]);
    const result = await client.callTool({ name: "apply_patch", arguments: { input: PATCH } });
    expect(result.isError).not.toBe(true);
    expect(file("src/app.ts")).toBe("export const answer = 42;\n");
  });
});
