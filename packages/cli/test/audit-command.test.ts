/**
 * `tackle audit list/show` and `--audit FILE` on tool, run and mcp: real binary, real files, real
 * processes. Includes a host killed with SIGKILL mid-call: the file stays readable and the call
 * shows as not ended.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AUDIT_FILE_ROTATE_BYTES } from "../src/audit-file.js";
import { BIN, EXIT, isAlive, killIfRunning, tackle, tempDir } from "./helpers.js";

let workspace: { dir: string; cleanup: () => void };
let auditFile: string;

beforeEach(() => {
  workspace = tempDir("tackle-cli-audit-");
  fs.writeFileSync(path.join(workspace.dir, "notes.txt"), "one\ntwo\n");
  auditFile = path.join(workspace.dir, "state", "audit.jsonl");
});
afterEach(() => workspace.cleanup());

/** Call ids in `tackle audit list` output, in order. */
function idsOf(list: string): string[] {
  return list
    .trim()
    .split("\n")
    .map((line) => line.split("  ")[1] as string);
}

/** Waits until `check` returns true, polling (fails after vitest's wait timeout). */
async function until(check: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(check()).toBe(true), { timeout: 30_000, interval: 50 });
}

/** Pids whose environment carries `TACKLE_RUN_ID=<runId>` (Linux /proc). */
function pidsWithMarker(runId: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, "latin1").includes(`TACKLE_RUN_ID=${runId}`))
        pids.push(Number(entry));
    } catch {
      // The process ended, or is not ours to read.
    }
  }
  return pids;
}

describe("tackle audit", () => {
  it("records tool calls as the user's and shows the six pieces of one", async () => {
    const cwd = workspace.dir;
    const read = await tackle(["tool", "read", '{"path":"notes.txt"}', "--cwd", cwd, "--audit", auditFile]);
    expect(read.code).toBe(EXIT.ok);
    const bash = await tackle([
      "tool",
      "bash",
      // A token of a known format: hidden wherever it appears (the intent, the spawn's command).
      '{"command":"echo TOKEN=ghp_Zq8rT2mW9xK4vB7nL1pD6sF3hJ5cY0aE2gUi > made.txt; echo done; exit 3"}',
      "--cwd",
      cwd,
      "--audit",
      auditFile,
    ]);
    expect(bash.code).toBe(EXIT.toolError);
    expect((fs.statSync(auditFile).mode & 0o777).toString(8)).toBe("600");

    const list = await tackle(["audit", "list", "--audit", auditFile]);
    expect(list.code).toBe(EXIT.ok);
    const lines = list.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/ {2}read {2}user {2}completed {2}/);
    expect(lines[1]).toMatch(/ {2}bash {2}user {2}failed {2}/);

    const [, bashId] = idsOf(list.stdout);
    const show = await tackle(["audit", "show", bashId as string, "--audit", auditFile]);
    expect(show.code).toBe(EXIT.ok);
    for (const label of ["1 Intent", "2 Decisions", "3 Spawn", "4 Output", "5 End", "6 Changes"]) {
      expect(show.stdout).toContain(label);
    }
    expect(show.stdout).toContain("shell-policy: allow");
    expect(show.stdout).toContain(`environment: local ${os.userInfo().username}@${os.hostname()}`);
    expect(show.stdout).toContain("$ echo TOKEN=");
    expect(show.stdout).toContain(`bash in ${fs.realpathSync(cwd)}, foreground`);
    expect(show.stdout).toContain("process: failed, exit code 3");
    expect(show.stdout).toContain("created made.txt");
    expect(show.stdout).toContain('tackle tool read \'{"path":');
    expect(fs.readFileSync(auditFile, "utf8")).not.toContain("Zq8rT2mW9xK4vB7nL1pD6sF3hJ5cY0aE2gUi");

    const last = await tackle(["audit", "show", "last", "--audit", auditFile, "--json"]);
    expect(JSON.parse(last.stdout)).toMatchObject({ callId: bashId, tool: "bash", ended: true });
  });

  it("shows what the syntax check said about a file the call changed", async () => {
    const cwd = workspace.dir;
    fs.writeFileSync(path.join(cwd, "config.json"), '{ "a": 1, "b": 2 }\n');
    const edit = await tackle([
      "tool",
      "edit",
      '{"path":"config.json","edits":[{"oldText":"\\"a\\": 1,","newText":"\\"a\\": 1"}]}',
      "--cwd",
      cwd,
      "--audit",
      auditFile,
    ]);
    expect(edit.code).toBe(EXIT.ok);
    expect(edit.stdout).toContain("Warning: config.json no longer parses as JSON.");
    const show = await tackle(["audit", "show", "last", "--audit", auditFile]);
    expect(show.stdout).toContain("7 Diagnostics");
    expect(show.stdout).toContain(
      `${fs.realpathSync(cwd)}/config.json: syntax broken (json, line 1: comma expected)`,
    );
  });

  it("filters with --since and refuses a bad one, a missing id and an unknown action", async () => {
    await tackle(["tool", "ls", "{}", "--cwd", workspace.dir, "--audit", auditFile]);
    expect(
      idsOf((await tackle(["audit", "list", "--since", "1h", "--audit", auditFile])).stdout),
    ).toHaveLength(1);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await tackle(["audit", "list", "--since", future, "--audit", auditFile])).stdout).toContain(
      "No audited calls.",
    );
    expect((await tackle(["audit", "list", "--since", "soon", "--audit", auditFile])).code).toBe(EXIT.usage);
    const missing = await tackle(["audit", "show", "nope", "--audit", auditFile]);
    expect(missing.code).toBe(EXIT.toolError);
    expect(missing.stderr).toContain("tackle audit list shows the recorded ids");
    expect((await tackle(["audit", "purge"])).code).toBe(EXIT.usage);
    const help = await tackle(["audit", "--help"]);
    expect(help.stdout).toContain("tackle audit show <callId|last>");
  });

  it("sets a full audit file aside as FILE.1 and still lists and shows the calls of both", async () => {
    const cwd = workspace.dir;
    expect((await tackle(["tool", "ls", "{}", "--cwd", cwd, "--audit", auditFile])).code).toBe(EXIT.ok);
    const [first] = idsOf((await tackle(["audit", "list", "--audit", auditFile])).stdout);
    // Blank lines are skipped on reading: the file is full without foreign lines.
    fs.appendFileSync(auditFile, `${" ".repeat(AUDIT_FILE_ROTATE_BYTES)}\n`);
    const read = await tackle(["tool", "read", '{"path":"notes.txt"}', "--cwd", cwd, "--audit", auditFile]);
    expect(read.code).toBe(EXIT.ok);
    expect(fs.statSync(`${auditFile}.1`).size).toBeGreaterThan(AUDIT_FILE_ROTATE_BYTES);
    expect(fs.statSync(auditFile).size).toBeLessThan(AUDIT_FILE_ROTATE_BYTES);
    const list = await tackle(["audit", "list", "--audit", auditFile]);
    expect(list.stderr).toBe("");
    const ids = idsOf(list.stdout);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(first);
    expect(list.stdout.trim().split("\n")[1]).toContain("read");
    const shown = await tackle(["audit", "show", first as string, "--audit", auditFile]);
    expect(shown.code).toBe(EXIT.ok);
    expect(shown.stdout).toContain("ls");
  });

  it("lists and shows a file with well-formed lines of malformed bodies: skipped and named, never a crash", async () => {
    const cwd = workspace.dir;
    expect((await tackle(["tool", "ls", "{}", "--cwd", cwd, "--audit", auditFile])).code).toBe(EXIT.ok);
    const at = new Date().toISOString();
    const base = { v: 1, callId: "bad", at, source: "test" };
    const malformed = [
      { ...base, kind: "intent", tool: "bash", args: { command: "ls" }, requestedBy: "model" },
      { ...base, kind: "decision", gate: "hook", verdict: "deny", rules: "no-rm" },
      { ...base, kind: "spawn", shell: "bash", cwd: "/", background: false, env: null },
      { ...base, kind: "end", scope: "call", status: "done", durationMs: "5" },
      { ...base, kind: "side-effect", method: "snapshot", files: [{ path: 3 }] },
    ];
    fs.appendFileSync(auditFile, malformed.map((line) => `${JSON.stringify(line)}\n`).join(""));
    const list = await tackle(["audit", "list", "--audit", auditFile]);
    expect(list.code).toBe(EXIT.ok);
    expect(idsOf(list.stdout)).toHaveLength(1);
    expect(list.stderr).toContain("skipped 5 line(s)");
    expect(list.stderr).toContain("args should be string");
    expect(list.stderr).toContain("rules should be string[]");
    const shown = await tackle(["audit", "show", "last", "--audit", auditFile]);
    expect(shown.code).toBe(EXIT.ok);
    expect(shown.stdout).toContain("ls");
    expect((await tackle(["audit", "show", "bad", "--audit", auditFile])).code).toBe(EXIT.toolError);
  });

  it("records nothing with --audit off", async () => {
    await tackle(["tool", "ls", "{}", "--cwd", workspace.dir, "--audit", "off"], {
      env: { TACKLE_AUDIT_FILE: auditFile },
    });
    expect(fs.existsSync(auditFile)).toBe(false);
  });

  it("records an agent run's calls as the model's, with their turn", async () => {
    const script = path.join(workspace.dir, "script.json");
    fs.writeFileSync(
      script,
      JSON.stringify({
        prompt: "look",
        replies: [{ toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] }, { text: "done" }],
      }),
    );
    const run = await tackle(["run", "--script", script, "--cwd", workspace.dir], {
      env: { TACKLE_AUDIT_FILE: auditFile },
    });
    expect(run.code).toBe(EXIT.ok);
    const record = JSON.parse(
      (await tackle(["audit", "show", "last", "--audit", auditFile, "--json"])).stdout,
    );
    expect(record.intent).toMatchObject({ tool: "read", requestedBy: "model", turnId: "turn-1" });
    expect(record.end).toMatchObject({ status: "completed" });
  });

  it("records an MCP client's calls as the model's", async () => {
    const client = new Client({ name: "tackle-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--cwd", workspace.dir, "--audit", auditFile],
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    } finally {
      const pid = transport.pid;
      await client.close();
      if (pid) killIfRunning(pid);
    }
    const record = JSON.parse(
      (await tackle(["audit", "show", "last", "--audit", auditFile, "--json"])).stdout,
    );
    expect(record.intent).toMatchObject({ tool: "read", requestedBy: "model" });
    expect(record.ended).toBe(true);
  });

  it("after a kill -9 of the host mid-call, the file reads and the call shows as not ended", async () => {
    const host = spawn(
      process.execPath,
      [
        BIN,
        "tool",
        "bash",
        '{"command":"echo started; sleep 30"}',
        "--cwd",
        workspace.dir,
        "--audit",
        auditFile,
      ],
      { stdio: "ignore" },
    );
    let runId: string | undefined;
    try {
      await until(() => {
        const text = fs.existsSync(auditFile) ? fs.readFileSync(auditFile, "utf8") : "";
        runId = /"runId":"([0-9a-f]+)"/.exec(text)?.[1];
        return runId !== undefined && pidsWithMarker(runId).length > 0;
      });
      host.kill("SIGKILL");
      await new Promise((resolve) => host.once("exit", resolve));
      // A torn write at the moment of the kill is simulated too: the reader must skip it.
      fs.appendFileSync(auditFile, '{"v":1,"kind":"output","callId":"tool-');
      const show = await tackle(["audit", "show", "last", "--audit", auditFile]);
      expect(show.code).toBe(EXIT.ok);
      expect(show.stderr).toContain("was cut off mid-write");
      expect(show.stdout).toContain("NOT ENDED");
      expect(show.stdout).toContain("3 Spawn     bash in");
      const list = await tackle(["audit", "list", "--audit", auditFile]);
      expect(list.stdout).toContain("not ended");
    } finally {
      if (isAlive(host.pid as number)) host.kill("SIGKILL");
      // The command outlived its host (nothing was left to end it): end it by its run marker.
      for (const pid of runId ? pidsWithMarker(runId) : []) killIfRunning(pid);
    }
  });
});
