import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, EXIT, isAlive, killIfRunning, tackle, tempDir } from "./helpers.js";

type Text = { type: string; text?: string };
const textOf = (result: { [key: string]: unknown }) =>
  (result.content as Text[])
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");

let workspace: { dir: string; cleanup: () => void };
const clients: { client: Client; transport: StdioClientTransport }[] = [];

async function connect(args: string[], roots?: string[]) {
  const client = new Client(
    { name: "tackle-test", version: "1.0.0" },
    { capabilities: roots ? { roots: {} } : {} },
  );
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: path.basename(root) })),
    }));
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...args],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  await client.connect(transport);
  clients.push({ client, transport });
  return { client, transport, stderr: () => stderr };
}

beforeEach(() => {
  workspace = tempDir();
  fs.writeFileSync(path.join(workspace.dir, "hello.txt"), "hello world\nsecond line\n");
});
afterEach(async () => {
  for (const { client, transport } of clients.splice(0)) {
    const pid = transport.pid;
    await client.close();
    if (pid) killIfRunning(pid);
  }
  workspace.cleanup();
});

describe("tackle mcp", () => {
  it("lists the tools with JSON Schemas and annotations", async () => {
    const { client } = await connect(["--cwd", workspace.dir]);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      expect.arrayContaining(["bash", "edit", "find", "grep", "jobs", "ls", "read", "write"]),
    );
    const read = tools.find((tool) => tool.name === "read")!;
    expect(read.inputSchema.type).toBe("object");
    expect(read.inputSchema.properties).toHaveProperty("path");
    expect(read.annotations?.readOnlyHint).toBe(true);
    const bash = tools.find((tool) => tool.name === "bash")!;
    expect(bash.annotations?.readOnlyHint).not.toBe(true);
    const edit = tools.find((tool) => tool.name === "edit")!;
    expect(edit.annotations?.destructiveHint).toBeDefined();
  });

  it("--read-only and --tools choose what is served", async () => {
    const readOnly = await connect(["--cwd", workspace.dir, "--read-only"]);
    expect((await readOnly.client.listTools()).tools.map((t) => t.name).sort()).toEqual([
      "find",
      "grep",
      "ls",
      "read",
    ]);
    // bash brings jobs: its background results tell the model to use it.
    const some = await connect(["--cwd", workspace.dir, "--tools", "read,bash"]);
    expect((await some.client.listTools()).tools.map((t) => t.name).sort()).toEqual(["bash", "jobs", "read"]);
    const some2 = await connect(["--cwd", workspace.dir, "--tools", "read,grep"]);
    expect(some2.client.getInstructions()).toBe("Coding tools: read, grep.");
  });

  it("calls read, grep, edit and bash", async () => {
    const { client } = await connect(["--cwd", workspace.dir]);
    const read = await client.callTool({ name: "read", arguments: { path: "hello.txt" } });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain("hello world");
    const grep = await client.callTool({ name: "grep", arguments: { pattern: "second" } });
    expect(textOf(grep)).toContain("hello.txt");
    const edit = await client.callTool({
      name: "edit",
      arguments: { path: "hello.txt", edits: [{ oldText: "hello world", newText: "hello mcp" }] },
    });
    expect(edit.isError).toBeFalsy();
    expect(fs.readFileSync(path.join(workspace.dir, "hello.txt"), "utf8")).toBe("hello mcp\nsecond line\n");
    const bash = await client.callTool({ name: "bash", arguments: { command: "cat hello.txt; exit 3" } });
    expect(bash.isError).toBe(true);
    expect(textOf(bash)).toContain("hello mcp");
    expect(textOf(bash)).toMatch(/exit code 3|exit 3|code: 3/i);
  });

  it("returns tool failures as error results, not protocol errors", async () => {
    const { client } = await connect(["--cwd", workspace.dir]);
    const missing = await client.callTool({ name: "read", arguments: { path: "absent.txt" } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("absent.txt");
    const unknown = await client.callTool({ name: "nope", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("Available tools");
  });

  it("answers a missing file or directory as tackle tool does, hint included", async () => {
    const { client } = await connect(["--cwd", workspace.dir]);
    for (const [name, args] of [
      ["read", { path: "absent.txt" }],
      ["read", { path: "hello.tx" }],
      ["ls", { path: "nodir" }],
    ] as const) {
      const overMcp = textOf(await client.callTool({ name, arguments: args }));
      const cli = await tackle(["tool", name, JSON.stringify(args), "--cwd", workspace.dir]);
      expect(cli.code).toBe(EXIT.toolError);
      expect(cli.stdout.trimEnd()).toBe(overMcp);
    }
  });

  it("carries each error's code in _meta, and none on success", async () => {
    const { client } = await connect(["--cwd", workspace.dir]);
    const codeOf = (result: { _meta?: Record<string, unknown> }) => result._meta?.["tackle/errorCode"];
    expect(codeOf(await client.callTool({ name: "read", arguments: { path: "absent.txt" } }))).toBe(
      "not_found",
    );
    expect(codeOf(await client.callTool({ name: "read", arguments: {} }))).toBe("invalid_arguments");
    expect(codeOf(await client.callTool({ name: "read", arguments: { path: "/etc/hostname" } }))).toBe(
      "outside_workspace",
    );
    expect(codeOf(await client.callTool({ name: "nope", arguments: {} }))).toBe("tool_not_found");
    const ok = await client.callTool({ name: "read", arguments: { path: "hello.txt" } });
    expect(ok.isError).toBeFalsy();
    expect(codeOf(ok)).toBeUndefined();
  });

  it("lists with each tool the codes its results may carry and what each means", async () => {
    const { client } = await connect(["--cwd", workspace.dir]);
    const { tools } = await client.listTools();
    const codesOf = (name: string) =>
      tools.find((tool) => tool.name === name)?._meta?.["tackle/errorCodes"] as Record<string, string>;
    expect(codesOf("edit")).toMatchObject({
      not_found: expect.stringContaining("does not exist"),
      no_match: expect.stringContaining("not found in the file"),
      ambiguous_match: expect.any(String),
    });
    expect(codesOf("read")).toHaveProperty("binary_file");
    // ls declares no codes of its own: the core's only.
    expect(codesOf("ls")).toHaveProperty("outside_workspace");
    expect(codesOf("ls")).not.toHaveProperty("no_match");
  });

  it("sends progress notifications from streaming output", async () => {
    const { client } = await connect(["--cwd", workspace.dir]);
    const progress: { progress: number; message?: string }[] = [];
    const result = await client.callTool(
      { name: "bash", arguments: { command: "for i in 1 2 3 4 5; do echo tick $i; sleep 0.3; done" } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((p) => p.message ?? "").join("\n")).toContain("tick");
  });

  it("cancellation from the client ends the running command's process", async () => {
    const { client } = await connect(["--cwd", workspace.dir]);
    const pidFile = path.join(workspace.dir, "pid");
    const controller = new AbortController();
    const call = client.callTool(
      { name: "bash", arguments: { command: `sleep 60 & echo $! > ${pidFile}; wait` } },
      undefined,
      { signal: controller.signal },
    );
    while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, "utf8").trim() === "") {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const pid = Number(fs.readFileSync(pidFile, "utf8").trim());
    expect(isAlive(pid)).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow();
    const deadline = Date.now() + 10_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(pid)).toBe(false);
  });

  it("follows the client's roots", async () => {
    const other = tempDir();
    try {
      fs.writeFileSync(path.join(other.dir, "elsewhere.txt"), "from another root\n");
      const outside = path.join(other.dir, "elsewhere.txt");
      const plain = await connect(["--cwd", workspace.dir]);
      const denied = await plain.client.callTool({ name: "read", arguments: { path: outside } });
      expect(denied.isError).toBe(true);
      const withRoots = await connect(["--cwd", workspace.dir], [workspace.dir, other.dir]);
      let allowed = await withRoots.client.callTool({ name: "read", arguments: { path: outside } });
      // Roots are fetched after initialisation; give the server a moment on a slow machine.
      for (let i = 0; i < 20 && allowed.isError; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        allowed = await withRoots.client.callTool({ name: "read", arguments: { path: outside } });
      }
      expect(textOf(allowed)).toContain("from another root");
    } finally {
      other.cleanup();
    }
  });

  it("writes nothing but protocol to stdout", async () => {
    // Any stray stdout line would make the SDK client fail to parse and reject the calls above;
    // here we also check the server's log went to stderr.
    const session = await connect(["--cwd", workspace.dir]);
    await session.client.listTools();
    expect(session.stderr()).toContain("tackle mcp: serving");
  });
});
