import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { type AuditEnvironment, assembleAuditRecords } from "@tackle/agent-core";
import { readAuditFile } from "@tackle/session/audit";
import { expect } from "vitest";

/** The built binary: tests spawn it exactly as a user would. */
export const BIN = path.resolve(import.meta.dirname, "..", "dist", "bin.js");
export const EXAMPLES = path.resolve(import.meta.dirname, "..", "..", "..", "examples");

/** Exit codes as documented in `tackle --help`. */
export const EXIT = { ok: 0, toolError: 1, usage: 2, environment: 3 } as const;

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `tackle ...args` to completion; `input` is written to its stdin (closed otherwise). */
export function tackle(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? os.tmpdir(),
      env: { ...process.env, ...options.env },
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => (stdout += chunk));
    child.stderr?.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** An environment that could not be reached or used: exit 3, nothing on stdout, the message on stderr. */
export function expectEnvironmentError(result: RunResult): void {
  expect(result.code, result.stderr).toBe(EXIT.environment);
  expect(result.stdout).toBe("");
}

/** A usage error: exit 2, nothing on stdout, the message on stderr. */
export function expectUsageError(result: RunResult): void {
  expect(result.code, result.stderr).toBe(EXIT.usage);
  expect(result.stdout).toBe("");
}

/** `tackle tool ls {} ...flags`: the cheapest call that opens an environment. */
export function ls(flags: string[], options?: Parameters<typeof tackle>[1]): Promise<RunResult> {
  return tackle(["tool", "ls", "{}", ...flags], options);
}

/** A `tackle` run whose stderr is a terminal (a pty from util-linux `script`); stdout goes to a file. */
export interface TerminalRun {
  /** Everything written to the terminal so far (stderr, with its control sequences). */
  terminal(): string;
  /** Resolves once the terminal output matches `pattern`. */
  waitForTerminal(pattern: RegExp): Promise<void>;
  /** Resolves when tackle exits: its exit code, stdout, and the whole terminal output. */
  done: Promise<{ code: number | null; stdout: string; terminal: string }>;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `tackle ...args` with stderr on a pseudo-terminal, as a person at a terminal would see it
 * (`script` gives the command a pty; stdout is redirected to a file so the streams stay apart).
 */
export function tackleOnTerminal(args: string[], options: { cwd?: string } = {}): TerminalRun {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-tty-"));
  const stdoutFile = path.join(scratch, "stdout");
  const command = `${[process.execPath, BIN, ...args].map(shellQuote).join(" ")} > ${shellQuote(stdoutFile)}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: options.cwd ?? os.tmpdir(),
    env: { ...process.env, TERM: "xterm" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let terminal = "";
  const waiters = new Set<() => void>();
  child.stdout.on("data", (chunk) => {
    terminal += chunk;
    for (const check of waiters) check();
  });
  child.stderr.on("data", (chunk) => (terminal += chunk));
  const done = new Promise<{ code: number | null; stdout: string; terminal: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const stdout = fs.existsSync(stdoutFile) ? fs.readFileSync(stdoutFile, "utf8") : "";
      fs.rmSync(scratch, { recursive: true, force: true });
      for (const check of waiters) check();
      resolve({ code, stdout, terminal });
    });
  });
  return {
    terminal: () => terminal,
    waitForTerminal: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(terminal)) {
            waiters.delete(check);
            resolve();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(new Error(`tackle exited before the terminal showed ${pattern}:\n${terminal}`));
          }
        };
        waiters.add(check);
        check();
      }),
    done,
  };
}

/** A temp directory removed by the returned cleanup. */
export function tempDir(prefix = "tackle-cli-"): { dir: string; cleanup: () => void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** SIGKILL by pid (never by name); a process that ended since it was listed is fine. */
export function killIfRunning(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/**
 * True while a process with this pid runs. A zombie has ended (only its exit status waits for a
 * reaper, which in a container may be slow to come), so it counts as gone, as it does for the
 * adapters' own cleanup checks.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The artifact path in the `--json` outcome of a shell tool call (`details.run.artifact.path`). */
export function artifactPathIn(output: string): string {
  const path = (JSON.parse(output) as { details?: { run?: { artifact?: { path?: string } } } }).details?.run
    ?.artifact?.path;
  if (!path) throw new Error(`no artifact path in:\n${output}`);
  return path;
}

/** A TCP port on 127.0.0.1 that nothing listens on (asked from the kernel, then released). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

/**
 * A TCP server on 127.0.0.1 that accepts connections and never answers (a stuck host, or a port
 * that is not an SSH server). Close it with the returned `close`.
 */
export async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs a bash that creates a file and an edit of it through `tackle tool` with `--audit`, and
 * checks that each call's record holds the six pieces (intent, decisions with the environment,
 * spawn, output, end, side effects with hashes) as the library records them on every adapter.
 * `flags` choose the environment (`--env ...` and its credentials); returns the environment noted.
 */
export async function expectSixPiecesThroughTheCli(
  flags: string[],
  options: { env?: NodeJS.ProcessEnv; auditFile: string },
): Promise<AuditEnvironment | undefined> {
  const run = (args: string[]) => tackle([...args, ...flags, "--audit", options.auditFile], options);
  const name = `made-${process.pid}-${Date.now()}.txt`;
  const bash = await run(["tool", "bash", JSON.stringify({ command: `echo one > ${name}; echo done` })]);
  expect(bash.code).toBe(EXIT.ok);
  const edit = await run([
    "tool",
    "edit",
    JSON.stringify({ path: name, edits: [{ oldText: "one", newText: "two" }] }),
  ]);
  expect(edit.code).toBe(EXIT.ok);
  const { events, skippedLines } = await readAuditFile(options.auditFile);
  expect(skippedLines).toEqual([]);
  const [shell, file] = assembleAuditRecords(events).slice(-2);
  for (const record of [shell, file]) {
    expect(record?.intent).toMatchObject({ requestedBy: "user" });
    expect(record?.decisions.map((d) => d.gate)).toEqual(
      expect.arrayContaining(["validation", "environment", "workspace"]),
    );
    expect(record?.end).toMatchObject({ scope: "call", status: "completed" });
  }
  expect(shell?.decisions.find((d) => d.gate === "shell-policy")?.verdict).toBe("allow");
  expect(shell?.spawn).toMatchObject({
    shell: "bash",
    command: `echo one > ${name}; echo done`,
    background: false,
  });
  expect(shell?.output).toMatchObject({ totalBytes: 5 });
  expect(shell?.processEnd).toMatchObject({ status: "completed", exitCode: 0, cleanup: { confirmed: true } });
  const created = shell?.sideEffects.find((s) => s.method === "snapshot")?.files.find((f) => f.path === name);
  expect(created).toMatchObject({ change: "created", bytesAfter: 4 });
  const changed = file?.sideEffects.find((s) => s.method === "exact")?.files[0];
  expect(changed?.sha256Before).toMatch(/^[0-9a-f]{64}$/);
  expect(changed?.sha256After).toMatch(/^[0-9a-f]{64}$/);
  const environment = shell?.decisions.find((d) => d.gate === "environment")?.environment;
  expect(file?.decisions.find((d) => d.gate === "environment")?.environment).toEqual(environment);
  return environment;
}
