import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { eventually } from "./support/processes.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

/**
 * What the conformance suite cannot see about SFTP files: how many bytes the server really read.
 * This server runs OpenSSH's sftp-server with logging on, which records for every file it closes
 * `close "PATH" bytes read N written M` (its own counters, not a timing).
 */
let server: TestSshServer;
let ops: SshOperations;

beforeAll(async () => {
  server = await startSshServer({ sftpLog: true });
  ops = createSshOperations({
    ...server.connectOptions,
    ripgrep: false,
  });
});

afterAll(async () => {
  await ops?.dispose();
  await server?.stop();
});

/** The server's "bytes read" for each close of `path`, in order (waits for `count` of them). */
async function bytesReadOnClose(path: string, count: number): Promise<number[]> {
  const logged = () =>
    readFile(join(server.dir, "sftp.log"), "utf8")
      .catch(() => "")
      .then((log) =>
        [...log.matchAll(/close "([^"]*)" bytes read (\d+) written \d+/g)]
          .filter((match) => match[1] === path)
          .map((match) => Number(match[2])),
      );
  return await eventually(logged, (reads) => reads.length >= count);
}

async function drain(iterable: AsyncIterable<Uint8Array>): Promise<number> {
  let total = 0;
  for await (const chunk of iterable) total += chunk.length;
  return total;
}

describe("openRead from an offset", () => {
  it("transfers only the tail: the server reads the tail's bytes, not the file", async () => {
    const path = join(server.dir, "large.bin");
    const size = 16 * 1024 * 1024;
    await writeFile(path, Buffer.alloc(size, 0x61));
    const tail = 1000;
    expect(await drain(ops.openRead(path, { start: size - tail }))).toBe(tail);
    // The counter works: a whole read of the same file counts every byte.
    expect(await drain(ops.openRead(path))).toBe(size);
    expect(await bytesReadOnClose(path, 2)).toEqual([tail, size]);
  });
});

describe("writeFile", () => {
  it("writes through a temp file in the same directory, renamed over the target, mode kept", async () => {
    const path = join(server.dir, "script.sh");
    await writeFile(path, "old\n", { mode: 0o750 });
    const before = await stat(path);
    await ops.writeFile(path, "new\n");
    const after = await stat(path);
    expect(await readFile(path, "utf8")).toBe("new\n");
    expect(after.mode & 0o7777).toBe(0o750);
    // A new inode: the old file was replaced by a rename, not rewritten in place.
    expect(after.ino).not.toBe(before.ino);
    // The server's own record: a temp file next to the target (named by the shared temp-name
    // shape), created exclusively, given the old mode, renamed over the target, and closed only
    // then (held open until renamed, so a failed write can find and remove it wherever it is).
    const log = await readFile(join(server.dir, "sftp.log"), "utf8");
    const temp = log.match(
      /open "([^"]*\/\.script\.sh\.tackle-[0-9a-f]{12}-[0-9]+-[0-9]+-[0-9a-f]{16}\.tmp)" flags [A-Z,]*EXCL/,
    )?.[1];
    expect(temp?.startsWith(`${server.dir}/`)).toBe(true);
    const steps = [`set "${temp}" mode 0750`, `posix-rename old "${temp}" new "${path}"`, `close "${temp}"`];
    const positions = steps.map((step) => log.indexOf(step));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
