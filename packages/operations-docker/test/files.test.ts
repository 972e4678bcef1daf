import { randomBytes } from "node:crypto";
import { readdir, readFile, readlink } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

/** What the conformance suite cannot see about files in a container: how much was really read. */
let ops: SessionContainer;

beforeAll(async () => {
  ops = await startTestContainer();
});

afterAll(async () => {
  await ops?.dispose();
});

/**
 * Bytes read so far by each process that has `path` open, from the kernel's own counter
 * (`/proc/PID/io` rchar, zero for a fresh process). Container processes are host processes and
 * their open files show their in-container paths, so the test reads this directly.
 */
async function bytesReadByReadersOf(path: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    const targets = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")));
    if (!targets.includes(path)) continue;
    const io = await readFile(`/proc/${pid}/io`, "utf8").catch(() => "");
    const rchar = io.match(/^rchar: (\d+)$/m)?.[1];
    if (rchar !== undefined) found.push(Number(rchar));
  }
  return found;
}

describe("the environment as records name it", () => {
  it("names the session container by name and the engine it is reached through", () => {
    expect(ops.environment).toEqual({
      kind: "docker",
      container: ops.id.slice("docker://".length),
      engine: `unix://${inject("dockerSocket")}`,
    });
  });
});

describe("openRead from an offset", () => {
  it("seeks: the tail of a 2 GiB (sparse) file is read without reading what comes before", async () => {
    const path = `/tmp/huge-sparse-${randomBytes(4).toString("hex")}.bin`;
    const size = 2 ** 31;
    const tail = 64 * 1024 * 1024;
    const made = await ops.exec(`truncate -s ${size} ${path}`, { shell: "sh", cwd: "/" });
    expect(made.exitCode).toBe(0);
    const start = size - tail;
    const stream = ops.openRead(path, { start })[Symbol.asyncIterator]();
    let total = 0;
    const first = await stream.next();
    total += first.value?.length ?? 0;
    // While this consumer holds the stream, the reader in the container waits with what it
    // read so far: far less than the offset it started at.
    const reads = await bytesReadByReadersOf(path);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toBeLessThanOrEqual(tail);
    for (let next = await stream.next(); !next.done; next = await stream.next()) total += next.value.length;
    expect(total).toBe(tail);
    await ops.remove(path);
  });
});
