import { existsSync } from "node:fs";
import { mkdtemp, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import type { ExecOptions, ExecResult } from "@tackle/operations";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSshOperations, type SshOperations, type SshOperationsOptions } from "../src/index.js";
import { killIfRunning } from "./support/processes.js";
import { descendantsOf, isAlive, startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

/**
 * A connection that dies while commands run (a network fault, a crashed host process, a killed
 * sshd) leaves no host that could stop them. The remote side ends them by itself: each command's
 * watchdog sees its channel's stdin end while sshd is gone, and ends the command's group, the
 * processes that left it, and its output copiers. Checked here by pid, on the test's own sshd.
 */
const servers: TestSshServer[] = [];
const adapters: SshOperations[] = [];

afterEach(async () => {
  await Promise.allSettled(adapters.splice(0).map((ops) => ops.dispose()));
  await Promise.allSettled(servers.splice(0).map((server) => server.stop()));
});

async function setup(
  options: Partial<SshOperationsOptions> = {},
): Promise<{ server: TestSshServer; ops: SshOperations }> {
  const server = await startSshServer();
  servers.push(server);
  const ops = createSshOperations({ ...server.connectOptions, ripgrep: false, killGraceMs: 300, ...options });
  adapters.push(ops);
  return { server, ops };
}

/** Whether `pid` runs the sshd binary (a per-connection process, not something it started). */
async function isSshd(pid: number): Promise<boolean> {
  return (await readlink(`/proc/${pid}/exe`).catch(() => "")) === "/usr/sbin/sshd";
}

/** The argv of `pid` (empty once it is gone). */
async function argvOf(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).split("\0");
}

/** Processes the server's sessions started (commands, copiers, watchdogs), not sshd's own. */
async function startedUnder(server: TestSshServer): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await descendantsOf(server.pid)) if (!(await isSshd(pid))) found.push(pid);
  return found;
}

/** The pids among `pids` that still run. */
async function living(pids: readonly number[]): Promise<number[]> {
  const alive: number[] = [];
  for (const pid of pids) if (await isAlive(pid)) alive.push(pid);
  return alive;
}

/** Starts `command` and resolves once its first output arrived, with the pending result. */
async function started(
  ops: SshOperations,
  command: string,
  options: Partial<ExecOptions> = {},
): Promise<{ result: Promise<ExecResult> }> {
  let seen!: () => void;
  const first = new Promise<void>((resolve) => {
    seen = resolve;
  });
  const result = ops.exec(command, {
    shell: "bash",
    cwd: "/",
    onChunk: () => seen(),
    ...options,
  });
  await Promise.race([first, result]);
  return { result };
}

describe("a dropped connection leaves nothing of its commands on the remote host", () => {
  it("four running commands (escapees, a capped output, tees, a TERM-ignoring one): every process ends", async () => {
    const { server, ops } = await setup();
    const dir = await mkdtemp(join(server.dir, "drop-"));
    const results = [
      await started(ops, "sleep 300 & setsid sleep 300 & echo started; wait"),
      await started(ops, "echo started; sleep 300", {
        outputPath: join(dir, "capped.log"),
        outputLimitBytes: 1024,
      }),
      await started(ops, "echo started; sleep 300", { outputPath: join(dir, "tee.log") }),
      await started(ops, "trap '' TERM; echo started; sleep 300 & wait"),
    ];
    // Every command process, copier and watchdog, by pid, while the connection still stands
    // (after the drop they belong to init and no longer show under the server).
    // A watchdog just forked shows the wrapper's argv until its exec: wait for all four.
    const watchdogs = await vi.waitFor(
      async () => {
        const found: number[] = [];
        for (const pid of await startedUnder(server))
          if ((await argvOf(pid)).includes("tackle-watchdog")) found.push(pid);
        expect(found).toHaveLength(4);
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    const pids = await startedUnder(server);
    expect(pids).toEqual(expect.arrayContaining(watchdogs));
    expect(pids.length).toBeGreaterThan(12);

    for (const pid of await descendantsOf(server.pid)) if (await isSshd(pid)) killIfRunning(pid);
    for (const { result } of results) expect((await result).status).toBe("unknown");

    await vi.waitFor(async () => expect(await living(pids)).toEqual([]), { timeout: 15_000, interval: 100 });
  }, 60_000);

  it.runIf(process.platform === "linux" && existsSync("/usr/bin/bwrap"))(
    "sandboxed commands (bubblewrap's init, a TERM-ignoring one, escapees inside): every process ends",
    async () => {
      const { server, ops } = await setup({ sandbox: { writable: ["/tmp"] } });
      const results = [
        await started(ops, "sleep 300 & setsid sleep 300 & echo started; wait"),
        await started(ops, "trap '' TERM; echo started; sleep 300 & wait"),
      ];
      const watchdogs = await vi.waitFor(
        async () => {
          const found: number[] = [];
          for (const pid of await startedUnder(server))
            if ((await argvOf(pid)).includes("tackle-watchdog")) found.push(pid);
          expect(found).toHaveLength(2);
          return found;
        },
        { timeout: 10_000, interval: 50 },
      );
      const pids = await startedUnder(server);
      expect(pids).toEqual(expect.arrayContaining(watchdogs));
      // bwrap's outer process and its init, for each command, are among them.
      const bwraps = [];
      for (const pid of pids)
        if ((await readlink(`/proc/${pid}/exe`).catch(() => "")).endsWith("/bwrap")) bwraps.push(pid);
      expect(bwraps.length).toBeGreaterThanOrEqual(4);

      for (const pid of await descendantsOf(server.pid)) if (await isSshd(pid)) killIfRunning(pid);
      for (const { result } of results) expect((await result).status).toBe("unknown");

      await vi.waitFor(async () => expect(await living(pids)).toEqual([]), {
        timeout: 15_000,
        interval: 100,
      });
    },
    60_000,
  );

  it("a command that ends as usual takes its watchdog with it", async () => {
    const { server, ops } = await setup();
    let pgid = 0;
    const running = ops.exec("while [ ! -e /proc/$$/fd/99 ]; do sleep 0.05; done", {
      shell: "bash",
      cwd: "/",
      timeoutMs: 30_000,
      onSpawn: (spawn) => {
        pgid = spawn.pgid;
      },
    });
    await vi.waitFor(() => expect(pgid).toBeGreaterThan(0));
    const watchdog = await vi.waitFor(async () => {
      for (const pid of await startedUnder(server)) {
        const argv = await argvOf(pid);
        if (argv.includes("tackle-watchdog") && argv.includes(String(pgid))) return pid;
      }
      throw new Error("no watchdog yet");
    });
    killIfRunning(pgid);
    expect((await running).status).toBe("failed");
    await vi.waitFor(async () => expect(await isAlive(watchdog)).toBe(false), { timeout: 10_000 });
  }, 60_000);
});
