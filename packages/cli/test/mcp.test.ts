import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EXIT, isAlive, tackle, tempDir } from "./helpers.js";
import { type ClientKind, closeClients, connectClient, ERAS, textOf } from "./mcp-clients.js";

let workspace: { dir: string; cleanup: () => void };

beforeEach(() => {
  workspace = tempDir();
  fs.writeFileSync(path.join(workspace.dir, "hello.txt"), "hello world\nsecond line\n");
});
afterEach(async () => {
  await closeClients();
  workspace.cleanup();
});

describe.each(ERAS)("tackle mcp over $name", ({ client: kind, version }) => {
  const connect = (args: string[], roots?: string[]) =>
    connectClient(kind as ClientKind, args, roots ? { roots } : {});

  it("negotiates the revision", async () => {
    const client = await connect(["--cwd", workspace.dir]);
    expect(client.protocolVersion()).toBe(version);
  });

  it("lists the tools with JSON Schemas and annotations", async () => {
    const client = await connect(["--cwd", workspace.dir]);
    const tools = await client.listTools();
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
    expect((await readOnly.listTools()).map((t) => t.name).sort()).toEqual(["find", "grep", "ls", "read"]);
    // bash brings jobs: its background results tell the model to use it.
    const some = await connect(["--cwd", workspace.dir, "--tools", "read,bash"]);
    expect((await some.listTools()).map((t) => t.name).sort()).toEqual(["bash", "jobs", "read"]);
    const some2 = await connect(["--cwd", workspace.dir, "--tools", "read,grep"]);
    expect(some2.instructions()).toBe("Coding tools: read, grep.");
  });

  it("calls read, grep, edit and bash", async () => {
    const client = await connect(["--cwd", workspace.dir]);
    const read = await client.callTool("read", { path: "hello.txt" });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain("hello world");
    const grep = await client.callTool("grep", { pattern: "second" });
    expect(textOf(grep)).toContain("hello.txt");
    const edit = await client.callTool("edit", {
      path: "hello.txt",
      edits: [{ oldText: "hello world", newText: "hello mcp" }],
    });
    expect(edit.isError).toBeFalsy();
    expect(fs.readFileSync(path.join(workspace.dir, "hello.txt"), "utf8")).toBe("hello mcp\nsecond line\n");
    const bash = await client.callTool("bash", { command: "cat hello.txt; exit 3" });
    expect(bash.isError).toBe(true);
    expect(textOf(bash)).toContain("hello mcp");
    expect(textOf(bash)).toMatch(/exit code 3|exit 3|code: 3/i);
  });

  it("returns tool failures as error results, not protocol errors", async () => {
    const client = await connect(["--cwd", workspace.dir]);
    const missing = await client.callTool("read", { path: "absent.txt" });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("absent.txt");
    const unknown = await client.callTool("nope", {});
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("Available tools");
  });

  it("answers a missing file or directory as tackle tool does, hint included", async () => {
    const client = await connect(["--cwd", workspace.dir]);
    for (const [name, args] of [
      ["read", { path: "absent.txt" }],
      ["read", { path: "hello.tx" }],
      ["ls", { path: "nodir" }],
    ] as const) {
      const overMcp = textOf(await client.callTool(name, args));
      const cli = await tackle(["tool", name, JSON.stringify(args), "--cwd", workspace.dir]);
      expect(cli.code).toBe(EXIT.toolError);
      expect(cli.stdout.trimEnd()).toBe(overMcp);
    }
  });

  it("carries each error's code in _meta, and none on success", async () => {
    const client = await connect(["--cwd", workspace.dir]);
    const codeOf = (result: { _meta?: Record<string, unknown> }) => result._meta?.["tackle/errorCode"];
    expect(codeOf(await client.callTool("read", { path: "absent.txt" }))).toBe("not_found");
    expect(codeOf(await client.callTool("read", {}))).toBe("invalid_arguments");
    expect(codeOf(await client.callTool("read", { path: "/etc/hostname" }))).toBe("outside_workspace");
    expect(codeOf(await client.callTool("nope", {}))).toBe("tool_not_found");
    const ok = await client.callTool("read", { path: "hello.txt" });
    expect(ok.isError).toBeFalsy();
    expect(codeOf(ok)).toBeUndefined();
  });

  it("lists with each tool the codes its results may carry and what each means", async () => {
    const client = await connect(["--cwd", workspace.dir]);
    const tools = await client.listTools();
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
    const client = await connect(["--cwd", workspace.dir]);
    const progress: { progress: number; message?: string }[] = [];
    const result = await client.callTool(
      "bash",
      { command: "for i in 1 2 3 4 5; do echo tick $i; sleep 0.3; done" },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((p) => p.message ?? "").join("\n")).toContain("tick");
  });

  it("cancellation from the client ends the running command's process", async () => {
    const client = await connect(["--cwd", workspace.dir]);
    const pidFile = path.join(workspace.dir, "pid");
    const controller = new AbortController();
    const call = client.callTool(
      "bash",
      { command: `sleep 60 & echo $! > ${pidFile}; wait` },
      { signal: controller.signal },
    );
    const pid = await vi.waitFor(
      () => {
        const text = fs.readFileSync(pidFile, "utf8").trim();
        if (text === "") throw new Error("no pid yet");
        return Number(text);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(isAlive(pid)).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow();
    await vi.waitFor(() => expect(isAlive(pid)).toBe(false), { timeout: 10_000, interval: 50 });
  });

  if (version === "2025-11-25") {
    it("follows the client's roots", async () => {
      const other = tempDir();
      try {
        fs.writeFileSync(path.join(other.dir, "elsewhere.txt"), "from another root\n");
        const outside = path.join(other.dir, "elsewhere.txt");
        const plain = await connect(["--cwd", workspace.dir]);
        const denied = await plain.callTool("read", { path: outside });
        expect(denied.isError).toBe(true);
        const withRoots = await connect(["--cwd", workspace.dir], [workspace.dir, other.dir]);
        // Roots are fetched after initialisation: wait until the server has them.
        await vi.waitFor(
          async () =>
            expect(textOf(await withRoots.callTool("read", { path: outside }))).toContain(
              "from another root",
            ),
          { timeout: 10_000, interval: 100 },
        );
      } finally {
        other.cleanup();
      }
    });
  } else {
    it("keeps --cwd as the workspace: 2026-07-28 has no request for the client's roots", async () => {
      const other = tempDir();
      try {
        fs.writeFileSync(path.join(other.dir, "elsewhere.txt"), "from another root\n");
        const withRoots = await connect(["--cwd", workspace.dir], [workspace.dir, other.dir]);
        const denied = await withRoots.callTool("read", { path: path.join(other.dir, "elsewhere.txt") });
        expect(denied._meta?.["tackle/errorCode"]).toBe("outside_workspace");
        expect(withRoots.stderr()).not.toContain("workspace roots:");
      } finally {
        other.cleanup();
      }
    });
  }

  it("writes nothing but protocol to stdout", async () => {
    // Any stray stdout line would make the SDK client fail to parse and reject the calls above;
    // here we also check the server's log went to stderr.
    const session = await connect(["--cwd", workspace.dir]);
    await session.listTools();
    expect(session.stderr()).toContain("tackle mcp: serving");
  });
});
