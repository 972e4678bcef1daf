// Structured output of `tackle mcp`: each tool with structure lists an outputSchema, and its
// results carry structuredContent that the real SDK clients validate against it (both SDKs
// reject a result whose structuredContent does not match the listed schema).
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "./helpers.js";
import { type ClientKind, closeClients, connectClient, ERAS, type McpTestClient } from "./mcp-clients.js";

let workspace: { dir: string; cleanup: () => void };
/** The resolved workspace directory: host paths that must never reach structured content. */
let real: string;

beforeEach(() => {
  workspace = tempDir();
  real = fs.realpathSync(workspace.dir);
  fs.writeFileSync(path.join(workspace.dir, "hello.txt"), "hello world\nsecond line\n");
  fs.mkdirSync(path.join(workspace.dir, "src"));
  fs.writeFileSync(path.join(workspace.dir, "src", "a.ts"), "export const a = 1; // TODO\n");
  fs.symlinkSync("hello.txt", path.join(workspace.dir, "link"));
});
afterEach(async () => {
  await closeClients();
  workspace.cleanup();
});

/** Fails when any string inside `value` names the workspace's host path. */
function expectNoHostPath(value: unknown) {
  expect(JSON.stringify(value)).not.toContain(real);
  expect(JSON.stringify(value)).not.toContain(workspace.dir);
}

describe.each(ERAS)("structured output over $name", ({ client: kind }) => {
  let client: McpTestClient;
  beforeEach(async () => {
    client = await connectClient(kind as ClientKind, ["--cwd", workspace.dir]);
  });

  it("lists an outputSchema for every tool but read", async () => {
    const tools = await client.listTools();
    const withSchema = tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name);
    expect(withSchema.sort()).toEqual(["bash", "edit", "find", "grep", "jobs", "ls", "write"]);
    for (const tool of tools.filter((t) => t.outputSchema)) {
      expect(tool.outputSchema?.type).toBe("object");
      expectNoHostPath(tool.outputSchema);
      expect(Object.keys(tool.outputSchema?.properties ?? {})).not.toContain("real");
    }
    const bash = tools.find((tool) => tool.name === "bash");
    expect(Object.keys(bash?.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(["shell", "command", "run", "job"]),
    );
    expect(Object.keys(bash?.outputSchema?.properties ?? {})).not.toContain("cwd");
  });

  it("grep and find: the search and its page", async () => {
    const grep = await client.callTool("grep", { pattern: "TODO|second" });
    expect(grep.isError).toBeFalsy();
    expect(grep.structuredContent).toMatchObject({
      pattern: "TODO|second",
      path: ".",
      matches: 2,
      files: 2,
      offset: 0,
      truncatedBy: null,
    });
    expect(["native", "portable"]).toContain(grep.structuredContent?.engine);
    expect(grep.structuredContent).not.toHaveProperty("nextOffset");
    const paged = await client.callTool("grep", { pattern: "TODO|second", limit: 1 });
    expect(paged.structuredContent).toMatchObject({ matches: 1, limit: 1, nextOffset: 1 });
    const find = await client.callTool("find", { pattern: "*.ts" });
    expect(find.structuredContent).toMatchObject({ pattern: "*.ts", count: 1, truncatedBy: null });
    expectNoHostPath([grep.structuredContent, paged.structuredContent, find.structuredContent]);
  });

  it("ls: the entries, without the resolved directory", async () => {
    const ls = await client.callTool("ls", { path: "." });
    expect(ls.structuredContent).toMatchObject({ path: ".", total: 3, shown: 3, ignoredCount: 0 });
    const entries = ls.structuredContent?.entries as { name: string; type: string }[];
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "hello.txt", type: "file", size: 24, ignored: false }),
        expect.objectContaining({ name: "src", type: "directory" }),
        expect.objectContaining({ name: "link", type: "symlink", target: "hello.txt", targetType: "file" }),
      ]),
    );
    expect(ls.structuredContent).not.toHaveProperty("real");
    expectNoHostPath(ls.structuredContent);
  });

  it("edit and write: what changed", async () => {
    const edit = await client.callTool("edit", {
      path: "hello.txt",
      edits: [{ oldText: "hello world", newText: "hello mcp" }],
    });
    expect(edit.isError).toBeFalsy();
    expect(edit.structuredContent).toMatchObject({
      path: "hello.txt",
      dryRun: false,
      changed: true,
      added: 1,
      removed: 1,
      encoding: "utf8",
      redone: 0,
      edits: [{ index: 0, status: "applied", occurrences: 1, lines: [1] }],
    });
    expect(edit.structuredContent?.diff).toContain("+hello mcp");
    const write = await client.callTool("write", { path: "new/notes.md", content: "a\nb\n" });
    expect(write.structuredContent).toEqual({
      path: "new/notes.md",
      created: true,
      dryRun: false,
      bytes: 4,
      lines: 2,
      writtenBytes: 4,
      encoding: "utf8",
      hasBom: false,
      lineEnding: "lf",
    });
    expectNoHostPath([edit.structuredContent, write.structuredContent]);
  });

  it("bash: the exit status, on success and on a failing command (with its error code)", async () => {
    const ok = await client.callTool("bash", { command: "echo hi" });
    expect(ok.structuredContent).toMatchObject({
      shell: "bash",
      command: "echo hi",
      run: { status: "completed", exitCode: 0, outputCut: false },
    });
    const failed = await client.callTool("bash", { command: "echo out; exit 3" });
    expect(failed.isError).toBe(true);
    expect(failed._meta?.["tackle/errorCode"]).toBe("execution_failed");
    expect(failed.structuredContent).toMatchObject({ run: { status: "failed", exitCode: 3 } });
    const run = failed.structuredContent?.run as Record<string, unknown>;
    expect(Object.keys(run).sort()).toEqual(
      [
        "elapsedMs",
        "exitCode",
        "outputCut",
        "outputLimitBytes",
        "status",
        "totalBytes",
        "wantedInput",
      ].sort(),
    );
    expectNoHostPath([ok.structuredContent, failed.structuredContent]);
  });

  it("bash in the background and jobs: the job's id and status, its output's offsets", async () => {
    const started = await client.callTool("bash", { command: "echo started; sleep 30", background: true });
    expect(started.isError).toBeFalsy();
    const job = started.structuredContent?.job as Record<string, unknown>;
    expect(job).toMatchObject({ shell: "bash", command: "echo started; sleep 30", keepAlive: false });
    expect(typeof job.id).toBe("string");
    for (const hidden of ["logPath", "owner", "cwd", "runId", "sessionId"])
      expect(Object.keys(job)).not.toContain(hidden);
    const list = await client.callTool("jobs", { action: "list" });
    // The list holds every job of the machine's registry: ours among them.
    expect(list.structuredContent?.jobs).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: job.id, status: "running" })]),
    );
    const tail = await vi.waitFor(
      async () => {
        const result = await client.callTool("jobs", { action: "tail", id: job.id, offset: 0 });
        expect(result.structuredContent?.size).toBeGreaterThan(0);
        return result;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(tail.structuredContent).toMatchObject({ job: { id: job.id }, offset: 0 });
    expect(typeof tail.structuredContent?.nextOffset).toBe("number");
    const killed = await client.callTool("jobs", { action: "kill", id: job.id });
    expect(killed.isError).toBeFalsy();
    expect(killed.structuredContent).toMatchObject({ job: { id: job.id, status: "killed" } });
    expectNoHostPath([started.structuredContent, list.structuredContent, tail.structuredContent]);
  });

  it("apply_patch, as a tool and as a bash heredoc: what each file did", async () => {
    const patch = (from: string, to: string) =>
      ["*** Begin Patch", "*** Update File: hello.txt", "@@", `-${from}`, `+${to}`, "*** End Patch"].join(
        "\n",
      );
    const patcher = await connectClient(kind as ClientKind, [
      "--cwd",
      workspace.dir,
      "--tools",
      "read,apply_patch",
    ]);
    const listed = await patcher.listTools();
    expect(listed.find((tool) => tool.name === "apply_patch")?.outputSchema?.type).toBe("object");
    const applied = await patcher.callTool("apply_patch", { input: patch("hello world", "hello patch") });
    expect(applied.isError).toBeFalsy();
    expect(applied.structuredContent).toEqual({
      dryRun: false,
      changed: true,
      files: [
        expect.objectContaining({ path: "hello.txt", action: "update", changed: true, added: 1, removed: 1 }),
      ],
    });
    const heredoc = await client.callTool("bash", {
      command: `apply_patch <<'EOF'\n${patch("hello patch", "hello heredoc")}\nEOF`,
    });
    expect(heredoc.isError).toBeFalsy();
    expect(heredoc.structuredContent).toMatchObject({
      shell: "bash",
      patch: { changed: true, files: [{ path: "hello.txt", action: "update" }] },
    });
    expect(heredoc.structuredContent).not.toHaveProperty("run");
    expect(fs.readFileSync(path.join(workspace.dir, "hello.txt"), "utf8")).toBe(
      "hello heredoc\nsecond line\n",
    );
    expectNoHostPath([applied.structuredContent, heredoc.structuredContent]);
  });

  it("a failure without the tool's details carries no structuredContent, only its code", async () => {
    const missing = await client.callTool("ls", { path: "nodir" });
    expect(missing.isError).toBe(true);
    expect(missing._meta?.["tackle/errorCode"]).toBe("not_found");
    expect(missing.structuredContent).toBeUndefined();
    const badCwd = await client.callTool("bash", { command: "true", cwd: "nodir" });
    expect(badCwd._meta?.["tackle/errorCode"]).toBe("not_found");
    expect(badCwd.structuredContent).toBeUndefined();
  });
});
