import { mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { contextForCall, type ToolSession } from "@tackle/extensions";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import {
  ALL_TOOL_NAMES,
  createAllTools,
  createAvailableTools,
  createCodingTools,
  createReadOnlyTools,
  createTool,
  createToolDefinition,
  createTools,
} from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";
import { alive, endPid, readPidFile } from "./shell-helpers.js";

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-factories-")));
  await writeFile(join(dir, "a.txt"), "one\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe("factories", () => {
  it("make the named sets, keyed by name; a set with a shell tool holds jobs", () => {
    const context = createLocalToolContext({ cwd: dir });
    expect(Object.keys(createCodingTools({ context }))).toEqual(["read", "bash", "edit", "write", "jobs"]);
    expect(Object.keys(createReadOnlyTools({ context }))).toEqual(["read", "grep", "find", "ls"]);
    expect(Object.keys(createAllTools({ context }))).toEqual([...ALL_TOOL_NAMES]);
    for (const [name, tool] of Object.entries(createAllTools({ context }))) expect(tool.name).toBe(name);
  });

  it("createTools makes exactly the named tools, plus jobs when a shell tool is named", () => {
    const context = createLocalToolContext({ cwd: dir });
    expect(Object.keys(createTools({ context, names: ["read", "edit"] }))).toEqual(["read", "edit"]);
    expect(Object.keys(createTools({ context, names: ["powershell", "read"] }))).toEqual([
      "powershell",
      "read",
      "jobs",
    ]);
    expect(Object.keys(createTools({ context, names: ["jobs", "bash", "bash"] }))).toEqual(["jobs", "bash"]);
  });

  it("refuses to make tools without a context, saying how to make one", () => {
    const noContext = { context: undefined } as unknown as { context: ToolSession };
    expect(() => createTool("read", noContext)).toThrow(/createToolContext/);
    expect(() => createCodingTools(noContext)).toThrow(/createLocalToolContext/);
    expect(() => createToolContext({ cwd: dir } as never)).toThrow(/needs `operations`/);
  });

  it("makes definitions that carry annotations and take their environment from the call's context", async () => {
    const definition = createToolDefinition("read");
    expect(definition.annotations.readOnlyHint).toBe(true);
    const ctx = createLocalToolContext({ cwd: dir });
    const call = contextForCall(ctx, { toolCallId: "id", toolName: "read", signal: undefined });
    const result = await definition.execute("id", { path: "a.txt" }, undefined, undefined, call);
    expect(result.content[0]).toEqual({
      type: "text",
      text: '<tool-output source="read">\n1\tone\n</tool-output>',
    });
  });

  it("tools made one by one on one context share its ledger: a stale edit is refused", async () => {
    const file = join(dir, "stale.txt");
    await writeFile(file, "alpha\n");
    const context = createLocalToolContext({ cwd: dir });
    const read = createTool("read", { context });
    const edit = createTool("edit", { context });
    expect((await invokeTool(read, { path: "stale.txt" })).isError).toBe(false);
    await writeFile(file, "alpha changed elsewhere\n");
    const refused = await invokeTool(edit, {
      path: "stale.txt",
      edits: [{ oldText: "alpha", newText: "beta" }],
    });
    expect(refused).toMatchObject({ isError: true, errorCode: "stale_read" });
    expect(await readFile(file, "utf8")).toBe("alpha changed elsewhere\n");
  });

  it("binds the tools of one set to one context, so read records what write checks", async () => {
    const context = createLocalToolContext({ cwd: dir });
    const { read, write } = createCodingTools({ context });
    await invokeTool(read, { path: "a.txt" });
    await writeFile(join(dir, "a.txt"), "changed elsewhere\n");
    const refused = await invokeTool(write, { path: "a.txt", content: "mine\n" });
    expect(refused).toMatchObject({ isError: true, errorCode: "stale_read" });
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("changed elsewhere\n");
  });

  it("createTool asks a context factory at every call, so the environment can be swapped", async () => {
    const other = await realpath(await mkdtemp(join(tmpdir(), "tackle-factories-other-")));
    try {
      await writeFile(join(other, "b.txt"), "in other\n");
      let ctx = createLocalToolContext({ cwd: dir });
      const ls = createTool("ls", { context: () => ctx });
      expect((await invokeTool(ls, {})).content[0]).toMatchObject({ text: expect.stringContaining("a.txt") });
      ctx = createToolContext({ cwd: other, operations: createLocalOperations() });
      expect((await invokeTool(ls, {})).content[0]).toMatchObject({
        text: '<tool-output source="ls">\nb.txt  9 B\n</tool-output>',
      });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("createAvailableTools leaves powershell out where pwsh does not run", async () => {
    const ctx = createLocalToolContext({ cwd: dir });
    const probe = await ctx.operations.exec("command -v pwsh", {
      shell: "bash",
      cwd: dir,
      timeoutMs: 10_000,
    });
    const names = Object.keys(await createAvailableTools({ context: ctx }));
    expect(names.includes("powershell")).toBe(probe.status === "completed");
    expect(names).toContain("bash");
    expect(names).toContain("jobs");
  });
});

describe("context.dispose", () => {
  it("ends the session's jobs and artifacts, and later calls fail with stale_context", async () => {
    const context = createLocalToolContext({ cwd: dir });
    const { bash, jobs } = createCodingTools({ context, tools: { bash: { killGraceMs: 300 } } });
    const started = await invokeTool(bash, {
      command: "echo $$ > job.pid; exec sleep 100",
      background: true,
    });
    expect(started.isError).toBe(false);
    const pid = await readPidFile(join(dir, "job.pid"));
    try {
      expect((await invokeTool(jobs, { action: "list" })).isError).toBe(false);
      const artifactDir = await context.artifacts.directory();
      expect(await exists(artifactDir)).toBe(true);

      await context.dispose();

      expect(alive(pid)).toBe(false);
      expect(await exists(artifactDir)).toBe(false);
      const after = await invokeTool(bash, { command: "echo late > late.txt" });
      expect(after).toMatchObject({ isError: true, errorCode: "stale_context" });
      expect(await exists(join(dir, "late.txt"))).toBe(false);
      expect(context.session.id).toEqual(expect.any(String));
      await expect(context.dispose()).resolves.toBeUndefined();
    } finally {
      endPid(pid);
    }
  });

  it("disposes the adapter only when the context owns it", async () => {
    let disposedCount = 0;
    const base = createLocalOperations();
    const operations = { ...base, dispose: async () => void disposedCount++ };
    await createToolContext({ cwd: dir, operations }).dispose();
    expect(disposedCount).toBe(0);
    await createToolContext({ cwd: dir, operations, disposeOperations: true }).dispose();
    expect(disposedCount).toBe(1);
  });
});

describe("createLocalToolContext", () => {
  it("refuses a cwd that does not exist or is a file, naming it and the next step", async () => {
    expect(() => createLocalToolContext({ cwd: join(dir, "no", "such", "dir") })).toThrow(
      `createLocalToolContext: cwd ${join(dir, "no", "such", "dir")} does not exist. Create it first, or pass an existing directory.`,
    );
    await writeFile(join(dir, "plain.txt"), "x");
    expect(() => createLocalToolContext({ cwd: join(dir, "plain.txt") })).toThrow("is not a directory");
    const context = createLocalToolContext({ cwd: dir });
    expect(context.cwd).toBe(dir);
    await context.dispose();
  });
});

describe("createToolContext options", () => {
  it("refuses a misspelt option and an unknown outside policy instead of ignoring or denying silently", () => {
    const operations = createLocalOperations();
    expect(() => createToolContext({ cwd: dir, operations, outside: "readonly" as never })).toThrow(
      'createToolContext: option outside must be "deny", "read-only", "allow"; got "readonly" (string).',
    );
    expect(() => createToolContext({ cwd: dir, operations, root: [dir] } as never)).toThrow(
      "createToolContext: unknown option root.",
    );
  });
});
