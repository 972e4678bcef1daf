/**
 * The resident shells the container adapters share, on a real `sh` of this machine: the same
 * loop, protocol and pool Docker and Kubernetes run, with a local child process as the stream.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  MAX_RESIDENT_SHELLS,
  type ResidentShellHost,
  ResidentShellPool,
  type ShellProcess,
} from "../src/container-scripts/index.js";
import { OperationError } from "../src/errors.js";

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  children.clear();
});

async function* stdoutFrames(child: ChildProcess): AsyncGenerator<{ stream: string; bytes: Uint8Array }> {
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) yield { stream: "stdout", bytes: chunk };
}

/** A host whose shells are local `sh` processes; `check` plays the adapter's watchdog. */
function localHost(
  check?: () => Promise<Error | undefined>,
): ResidentShellHost & { started: ChildProcess[] } {
  const started: ChildProcess[] = [];
  return {
    started,
    async start(argv): Promise<ShellProcess> {
      const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["pipe", "pipe", "ignore"] });
      children.add(child);
      started.push(child);
      const ended = new Promise<unknown>((resolve) => child.once("close", resolve));
      return {
        frames: stdoutFrames(child),
        write: (bytes) => child.stdin?.write(bytes),
        hold: () => {},
        detach: () => child.stdin?.end(),
        ended: () => ended,
      };
    },
    fail: (error, operation) =>
      new OperationError("unknown", `${operation}: ${String(error)}`, { operation }),
    ...(check ? { watchdog: { everyMs: 20, check } } : {}),
  };
}

describe("resident shells (shared by the container adapters)", () => {
  it("runs scripts one after another on one shell, with exact stdin and exit statuses", async () => {
    const host = localHost();
    const pool = new ResidentShellPool(host);
    try {
      const data = Buffer.from("line one\nline two\n\0binary\n");
      const cat = await pool.run("cat", { data, operation: "read" });
      expect(cat.stdout.equals(data)).toBe(true);
      expect(cat.exitCode).toBe(0);
      // A script that reads nothing still leaves the next header where it belongs.
      const ignored = await pool.run("echo ignored; exit 3", {
        data: Buffer.from("x".repeat(100_000)),
        operation: "t",
      });
      expect([ignored.stdout.toString(), ignored.exitCode]).toEqual(["ignored\n", 3]);
      // Output that contains the start of the end line's shape is not mistaken for it.
      const tricky = await pool.run("printf '\\nnot-the-boundary:7\\nok'", { operation: "t" });
      expect(tricky.stdout.toString()).toBe("\nnot-the-boundary:7\nok");
      expect(host.started).toHaveLength(1);
    } finally {
      pool.close();
    }
  });

  it("streams a large output in order and returns the exit status", async () => {
    const pool = new ResidentShellPool(localHost());
    try {
      const stream = pool.stream("seq 1 200000; exit 5", { operation: "list" });
      const parts: Buffer[] = [];
      let next = await stream.next();
      while (!next.done) {
        parts.push(Buffer.from(next.value));
        next = await stream.next();
      }
      expect(next.value).toBe(5);
      const lines = Buffer.concat(parts).toString().trimEnd().split("\n");
      expect(lines).toHaveLength(200_000);
      expect(lines[199_999]).toBe("200000");
    } finally {
      pool.close();
    }
  });

  it("starts at most MAX_RESIDENT_SHELLS shells for parallel calls; the rest wait for one", async () => {
    const host = localHost();
    const pool = new ResidentShellPool(host);
    try {
      const calls = Array.from({ length: MAX_RESIDENT_SHELLS * 3 }, (_, i) =>
        pool.run(`echo ${i}`, { operation: "t" }),
      );
      const results = await Promise.all(calls);
      expect(results.map((r) => r.stdout.toString().trim())).toEqual(calls.map((_, i) => String(i)));
      expect(host.started.length).toBeLessThanOrEqual(MAX_RESIDENT_SHELLS);
    } finally {
      pool.close();
    }
  });

  it("an aborted call fails as aborted and retires its shell; the next call gets a fresh one", async () => {
    const host = localHost();
    const pool = new ResidentShellPool(host);
    try {
      const controller = new AbortController();
      const slow = pool.run("sleep 30", { operation: "read", path: "/a", signal: controller.signal });
      await vi.waitFor(() => expect(host.started).toHaveLength(1));
      controller.abort();
      await expect(slow).rejects.toMatchObject({ code: "aborted", operation: "read", path: "/a" });
      const after = await pool.run("echo fresh", { operation: "t" });
      expect(after.stdout.toString()).toBe("fresh\n");
      expect(host.started).toHaveLength(2);
    } finally {
      pool.close();
    }
  });

  it("a stream left early is finished in the background and its shell reused", async () => {
    const host = localHost();
    const pool = new ResidentShellPool(host);
    try {
      const stream = pool.stream("seq 1 50000", { operation: "list" });
      await stream.next();
      await stream.return(0);
      // Its request runs to the end with the output dropped; then the shell is idle again, not
      // closed: a later call runs on that same shell (its pid is the loop's `$$`).
      const first = host.started[0] as ChildProcess;
      await vi.waitFor(() => expect(pool.shells).toEqual({ open: 1, idle: 1 }));
      const result = await pool.run("echo $$", { operation: "t" });
      expect(Number(result.stdout.toString())).toBe(first.pid);
      expect(host.started).toHaveLength(1);
      expect(first.exitCode).toBeNull();
    } finally {
      pool.close();
    }
  });

  it("the adapter's watchdog fails a pending request with its error and retires the shell", async () => {
    let frozen = false;
    const failure = new OperationError("connection_lost", "container paused", { operation: "read" });
    const host = localHost(async () => (frozen ? failure : undefined));
    const pool = new ResidentShellPool(host);
    try {
      const slow = pool.run("sleep 30", { operation: "read" });
      await vi.waitFor(() => expect(host.started).toHaveLength(1));
      frozen = true;
      await expect(slow).rejects.toBe(failure);
      frozen = false;
      expect((await pool.run("echo next", { operation: "t" })).stdout.toString()).toBe("next\n");
      expect(host.started).toHaveLength(2);
    } finally {
      pool.close();
    }
  });

  it("refuses calls after close with a typed error naming the operation", async () => {
    const pool = new ResidentShellPool(localHost());
    pool.close();
    await expect(pool.run("true", { operation: "stat" })).rejects.toMatchObject({
      code: "aborted",
      operation: "stat",
    });
  });
});
