/**
 * The command wrapper the container adapters share (`runWrappedCommand`), on this machine's `sh`:
 * a local child process stands for the exec, so the wrapper's own process group, its reports, the
 * stop script and the judgement of a lost environment are checked without a container.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  envArguments,
  runWrappedCommand,
  STOP_SCRIPT,
  WRAPPER_SCRIPT,
  type WrappedCommandTransport,
  type WrapperFrame,
} from "../src/container-scripts/index.js";
import type { ExecOptions, OutputChunk } from "../src/types.js";

const tempDir = mkdtempSync(join(tmpdir(), "tackle-wrapped-"));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));
const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  children.clear();
});

async function* framesOf(child: ChildProcess): AsyncGenerator<WrapperFrame> {
  const queue: WrapperFrame[] = [];
  let open = 2;
  let wake: (() => void) | undefined;
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream]?.on("data", (bytes: Buffer) => {
      queue.push({ stream, bytes });
      wake?.();
    });
    child[stream]?.on("close", () => {
      open--;
      wake?.();
    });
  }
  for (;;) {
    const frame = queue.shift();
    if (frame) yield frame;
    else if (open === 0) return;
    else await new Promise<void>((resolve) => (wake = resolve));
  }
}

/** A transport whose "exec" is a local process; `dies` ends the wrapper's own shell mid-run. */
function localTransport(
  options: { dies?: boolean } = {},
): WrappedCommandTransport & { wrappers: ChildProcess[] } {
  const wrappers: ChildProcess[] = [];
  return {
    wrappers,
    place: "test environment",
    tempDir,
    sandboxRefusal: "exec: sandbox unavailable here; call without it.",
    async start(call) {
      const argv = call.argv({
        command: call.command,
        watchdog: "",
        commandBytes: "",
        env: envArguments(call.options.env),
      });
      const child = spawn("sh", ["-c", WRAPPER_SCRIPT, "sh", ...argv], { stdio: ["ignore", "pipe", "pipe"] });
      children.add(child);
      wrappers.push(child);
      const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
      // The environment going away: the wrapper killed and its streams cut, as a stopped
      // container or a dropped connection leaves them.
      if (options.dies)
        child.stdout?.once("data", () => {
          child.kill("SIGKILL");
          child.stdout?.destroy();
          child.stderr?.destroy();
        });
      return {
        frames: framesOf(child),
        async ended() {
          const code = await exited;
          return code === null ? { why: "the environment went away", lost: true } : { exitCode: code };
        },
        release: () => child.kill("SIGKILL"),
      };
    },
    async runStop(args) {
      const stop = spawnSync("sh", ["-c", STOP_SCRIPT, "sh", ...args], { encoding: "utf8" });
      return stop.stdout;
    },
  };
}

const run = (transport: WrappedCommandTransport, command: string, options: Partial<ExecOptions> = {}) => {
  const chunks: OutputChunk[] = [];
  const result = runWrappedCommand(transport, command, {
    shell: "sh",
    cwd: tempDir,
    onChunk: (chunk) => chunks.push(chunk),
    ...options,
  });
  const text = (stream: string) =>
    Buffer.concat(chunks.filter((c) => c.stream === stream).map((c) => Buffer.from(c.bytes))).toString();
  return { result, text };
};

/** Whether `pid` runs (a zombie waiting for its reaper does not). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

describe("runWrappedCommand (the wrapper the container adapters share)", () => {
  it("streams both streams, reports the exit code, sets and removes variables", async () => {
    const { result, text } = run(localTransport(), 'echo "out $A ${HOME:-nohome}"; echo err >&2; exit 4', {
      env: { A: "a value", HOME: undefined },
    });
    const done = await result;
    expect(done).toMatchObject({ status: "failed", exitCode: 4 });
    expect(text("stdout")).toBe("out a value nohome\n");
    expect(text("stderr")).toBe("err\n");
  });

  it("a timeout stops the whole group through the stop script: TERM confirmed, no process left", async () => {
    const transport = localTransport();
    const pids: number[] = [];
    const { result } = run(transport, "sleep 30 & echo $!; sleep 30", {
      timeoutMs: 300,
      killGraceMs: 1000,
      onChunk: (chunk) => pids.push(Number(Buffer.from(chunk.bytes).toString().trim())),
    });
    const done = await result;
    expect(done.status).toBe("timed-out");
    expect(done.cleanup).toMatchObject({ termSent: true, confirmed: true });
    expect(pids[0]).toBeGreaterThan(0);
    await vi.waitFor(() => expect(alive(pids[0] as number)).toBe(false));
  });

  it("an environment that goes away mid-command gives status unknown with the transport's reason", async () => {
    const groups: number[] = [];
    const { result } = run(localTransport({ dies: true }), "echo $$; sleep 30", {
      onChunk: (chunk) => groups.push(Number(Buffer.from(chunk.bytes).toString().trim())),
    });
    try {
      const done = await result;
      expect(done.status).toBe("unknown");
      expect(JSON.stringify(done.cleanup)).toContain("the environment went away");
    } finally {
      // Here nothing ends the command's own group (a container's stop or a pod's watchdog would).
      for (const group of groups) if (group > 0) process.kill(-group, "SIGKILL");
    }
  });

  it("refuses a sandboxed call with the transport's words, and bad environment names", async () => {
    await expect(run(localTransport(), "true", { sandbox: { network: "off" } }).result).rejects.toMatchObject(
      {
        code: "not_supported",
        message: "exec: sandbox unavailable here; call without it.",
      },
    );
    await expect(run(localTransport(), "true", { env: { "A=B": "x" } }).result).rejects.toMatchObject({
      code: "invalid_argument",
    });
  });
});
