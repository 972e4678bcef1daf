import { execFileSync } from "node:child_process";
import { readdirSync, readlinkSync, realpathSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { killIfRunning } from "./support/processes.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

/** Remote ripgrep details the conformance suite cannot see: the process is stopped, not drained. */
let server: TestSshServer;
let ops: SshOperations;

beforeAll(async () => {
  server = await startSshServer({ tools: [rgPath] });
  ops = createSshOperations(server.connectOptions);
  await ops.connect();
});

afterAll(async () => {
  await ops?.dispose();
  await server?.stop();
});

describe("remote ripgrep", () => {
  it("is found on the remote PATH by the connect probe", () => {
    expect(ops.search).toBeDefined();
  });

  it("maxMatches stops the remote rg: an endless input is not drained", async () => {
    // 20,000 matching lines (120 KB: more than rg's first read, so the NUL bytes of the hole are
    // not in it; a NUL in the first read makes rg answer "binary file matches" with no lines), then
    // a hole of 1 TiB: only an rg that stops at maxMatches, or is killed, lets go of the file. (A
    // FIFO would be endless too, but a search refuses one given by name: special_file.)
    const endless = join(server.dir, "endless.txt");
    writeFileSync(endless, "MATCH\n".repeat(20_000));
    truncateSync(endless, 2 ** 40);
    try {
      const matches: unknown[] = [];
      for await (const event of ops.search!.grep({ pattern: "MATCH", path: endless, maxMatches: 3 }))
        matches.push(event);
      expect(matches).toHaveLength(3);
      // The sshd is on this machine: its rg is one of our processes. Gone once it was killed.
      await vi.waitFor(() => expect(readersOf(endless)).toEqual([]), { timeout: 30_000, interval: 20 });
    } finally {
      for (const pid of readersOf(endless)) killIfRunning(pid);
      rmSync(endless, { force: true });
    }
  });

  it("files() with a limit stops early the same way", async () => {
    const fifoDir = join(server.dir, "many");
    execFileSync("mkdir", ["-p", fifoDir]);
    execFileSync("sh", ["-c", `cd '${fifoDir}' && for i in $(seq 1 200); do : > "f$i.txt"; done`]);
    const listed: string[] = [];
    for await (const path of ops.search!.files({ path: fifoDir, limit: 5 })) listed.push(path);
    expect(listed).toHaveLength(5);
    for (const path of listed) expect(path).toMatch(/^f\d+\.txt$/);
  });
});

/** Pids of the processes that have `path` open (from /proc/PID/fd). */
function readersOf(path: string): number[] {
  const target = realpathSync(path);
  const pids: number[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone meanwhile
    }
    const opened = fds.some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === target;
      } catch {
        return false; // closed meanwhile
      }
    });
    if (opened) pids.push(Number(pid));
  }
  return pids;
}
