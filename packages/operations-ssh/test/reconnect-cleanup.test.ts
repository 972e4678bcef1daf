import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOperationError, isTempFileName, type OutputChunk, parseTempFileName } from "@tackle/operations";
import { swapDuringWrite } from "@tackle/operations/conformance";
import { afterEach, describe, expect, it } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { eventually, killIfRunning } from "./support/processes.js";
import { descendantsOf, isAlive, startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

/**
 * A dropped connection leaves work on the remote host that the adapter could not finish: commands
 * it saw start but not end, and temp files of writes it cut off. The next connection of the same
 * adapter cleans them up. The connection is dropped the way a network or server fault does it:
 * the per-connection sshd processes are SIGKILLed (the listener stays), so the commands they
 * started are orphaned. Each command's remote watchdog ends it then (connection-drop.test.ts);
 * the cleanup on reconnect is the second line, for a command whose watchdog is gone too.
 */
const servers: TestSshServer[] = [];
const adapters: SshOperations[] = [];

afterEach(async () => {
  await Promise.allSettled(adapters.splice(0).map((ops) => ops.dispose()));
  await Promise.allSettled(servers.splice(0).map((server) => server.stop()));
});

async function setup(): Promise<{ server: TestSshServer; ops: SshOperations }> {
  const server = await startSshServer();
  servers.push(server);
  const ops = createSshOperations({
    ...server.connectOptions,
    ripgrep: false,
    killGraceMs: 300,
  });
  adapters.push(ops);
  return { server, ops };
}

/** The sshd processes serving connections (not the listener, not what they started). */
async function connectionProcesses(server: TestSshServer): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await descendantsOf(server.pid)) {
    if ((await readlink(`/proc/${pid}/exe`).catch(() => "")) === "/usr/sbin/sshd") found.push(pid);
  }
  return found;
}

/** SIGKILLs the sshd processes serving connections: the commands they started are orphaned. */
async function dropConnections(server: TestSshServer): Promise<void> {
  for (const pid of await connectionProcesses(server)) killIfRunning(pid);
}

/** `TACKLE_EXEC_ID` of a process, or undefined. */
async function markerOf(pid: number): Promise<string | undefined> {
  const environ = await readFile(`/proc/${pid}/environ`, "latin1").catch(() => "");
  return environ
    .split("\0")
    .find((entry) => entry.startsWith("TACKLE_EXEC_ID="))
    ?.slice("TACKLE_EXEC_ID=".length);
}

/**
 * The marker of the one command running under `server` (every process a command starts inherits
 * it, also one that leaves the group); other suites' commands on this machine have their own.
 */
async function commandMarker(server: TestSshServer): Promise<string | undefined> {
  for (const pid of await descendantsOf(server.pid)) {
    const marker = await markerOf(pid);
    if (marker) return marker;
  }
  return undefined;
}

/** Live pids carrying `marker`. */
async function processesWithMarker(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    if ((await markerOf(Number(name))) === marker && (await isAlive(Number(name)))) found.push(Number(name));
  }
  return found;
}

function firstOutput(): { onChunk: (chunk: OutputChunk) => void; seen: Promise<void> } {
  let resolve!: () => void;
  const seen = new Promise<void>((r) => {
    resolve = r;
  });
  return { onChunk: () => resolve(), seen };
}

/** Temp file names in `dir` (the test sshd writes to this machine's disk). */
async function tempFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter(isTempFileName);
}

describe("after a dropped connection, the next connection cleans up", () => {
  it("commands the drop cut off are ended, also their processes outside the group: no survivors", async () => {
    const { server, ops } = await setup();
    const started = firstOutput();
    const running = ops.exec("sleep 300 & setsid sleep 300 & echo started; wait", {
      shell: "bash",
      cwd: "/",
      onChunk: started.onChunk,
    });
    await started.seen;
    const marker = (await commandMarker(server)) as string;
    expect(marker).toMatch(/^[0-9a-f]+$/);
    const survivors = () => processesWithMarker(marker);
    // bash, its sleep, and the sleep that left the group with setsid.
    expect((await eventually(survivors, (pids) => pids.length >= 3)).length).toBeGreaterThanOrEqual(3);
    // Its watchdog is ended first (by pid), as on a host where it could not run.
    const watchdogs: number[] = [];
    for (const pid of await descendantsOf(server.pid)) {
      const argv = (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).split("\0");
      if (argv.includes("tackle-watchdog")) watchdogs.push(pid);
    }
    expect(watchdogs).toHaveLength(1);
    for (const pid of watchdogs) killIfRunning(pid);
    await dropConnections(server);
    const result = await running;
    expect(result.status).toBe("unknown");
    // The drop alone then leaves them running: the adapter could not reach the host to end them.
    expect((await survivors()).length).toBeGreaterThanOrEqual(3);
    // Any call reconnects; the cleanup runs through the new connection.
    expect((await ops.stat("/")).type).toBe("directory");
    expect(await eventually(survivors, (pids) => pids.length === 0, 15_000)).toEqual([]);
  }, 60_000);

  it("a write the drop cut off: its temp file is removed on reconnect", async () => {
    const { server, ops } = await setup();
    const dir = await mkdtemp(join(server.dir, "cut-"));
    await ops.stat("/");
    const serving = await connectionProcesses(server);
    let left: string[] = [];
    // The drop comes the moment the temp file appears (an inotify event), well before the
    // 64 MiB are through.
    const { error } = await swapDuringWrite(
      dir,
      () => ops.writeFile(join(dir, "big.bin"), new Uint8Array(64 * 1024 * 1024).fill(1)),
      (name) => {
        for (const pid of serving) killIfRunning(pid);
        left = [name];
        return dir;
      },
    );
    expect(isOperationError(error, "connection_lost"), String(error)).toBe(true);
    expect(await tempFiles(dir)).toEqual(left);
    expect(isTempFileName(left[0] as string)).toBe(true);
    expect((await ops.stat("/")).type).toBe("directory");
    expect(
      await eventually(
        () => tempFiles(dir),
        (names) => names.length === 0,
        15_000,
      ),
    ).toEqual([]);
  }, 60_000);
});

const WRITE_LOOP = fileURLToPath(new URL("./fixtures/write-loop.mjs", import.meta.url));

describe("temp files of a host process killed mid-write", () => {
  it("are left behind, and once their SFTP server is gone the next write to the directory (from any host) sweeps them", async () => {
    const { server, ops } = await setup();
    const dir = await mkdtemp(join(server.dir, "killed-"));
    const credentials = JSON.stringify(server.connectOptions);
    // A kill that lands just after a rename leaves nothing: then the next writer is killed.
    let stranded: string[] = [];
    while (stranded.length === 0) {
      const child = spawn(process.execPath, [WRITE_LOOP, credentials, join(dir, "big.bin")], {
        stdio: "ignore",
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      try {
        await eventually(
          () => tempFiles(dir),
          (names) => names.length > 0,
          30_000,
        );
      } finally {
        child.kill("SIGKILL");
        await exited;
      }
      stranded = await tempFiles(dir);
    }
    // The temp file's writer is the SFTP server of the killed process's connection: it ends
    // with that connection, and until then its temp file is not touched.
    const writer = parseTempFileName(stranded[0] as string)?.owner.pid as number;
    expect(
      await eventually(
        () => isAlive(writer),
        (alive) => !alive,
        15_000,
      ),
    ).toBe(false);
    expect(await tempFiles(dir)).toEqual(stranded);
    await ops.writeFile(join(dir, "next.txt"), "next");
    expect(await tempFiles(dir)).toEqual([]);
  }, 60_000);
});
