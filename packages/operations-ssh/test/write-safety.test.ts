import { execFileSync } from "node:child_process";
import { renameSync, symlinkSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isOperationError, isTempFileName, parseTempFileName } from "@tackle/operations";
import { listDiskTree, swapDuringWrite } from "@tackle/operations/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

let server: TestSshServer;
let ops: SshOperations;

beforeAll(async () => {
  server = await startSshServer();
  ops = createSshOperations({
    ...server.connectOptions,
    ripgrep: false,
  });
});

afterAll(async () => {
  await ops?.dispose();
  await server?.stop();
});

/** A workspace and an outside directory on the remote (this machine: the test sshd is local). */
async function places(): Promise<{ root: string; sub: string; outside: string }> {
  const root = await mkdtemp(join(server.dir, "ws-"));
  const outside = await mkdtemp(join(server.dir, "out-"));
  await mkdir(join(root, "sub"));
  return { root, sub: join(root, "sub"), outside };
}

const big = () => new Uint8Array(64 * 1024 * 1024).fill(1);

describe("writeFile when the directory changes under it", () => {
  it("the directory replaced by a link after the temp file was made: not not_found, and the temp file is removed from where it went", async () => {
    const { sub, outside } = await places();
    const { error, swappedMidWrite } = await swapDuringWrite(
      sub,
      () => ops.writeFile(join(sub, "big.bin"), big()),
      () => {
        renameSync(sub, `${sub}.away`);
        symlinkSync(outside, sub);
        return `${sub}.away`;
      },
    );
    expect(swappedMidWrite).toBe(true);
    // The rename through the swapped path finds no temp file: the write fails, typed, not "missing".
    expect(isOperationError(error, "not_found")).toBe(false);
    expect(isOperationError(error)).toBe(true);
    expect(await listDiskTree(`${sub}.away`)).toEqual([]);
    expect(await listDiskTree(outside)).toEqual([]);
  });

  it("with `within`: the directory moved out of the root after the temp file was made is outside_root, nothing left outside", async () => {
    const { root, sub, outside } = await places();
    const { error, swappedMidWrite } = await swapDuringWrite(
      sub,
      () => ops.writeFile(join(sub, "big.bin"), big(), { within: root }),
      () => {
        renameSync(sub, join(outside, "sub"));
        return join(outside, "sub");
      },
    );
    expect(swappedMidWrite).toBe(true);
    expect(isOperationError(error, "outside_root"), String(error)).toBe(true);
    expect(await listDiskTree(outside)).toEqual(["sub"]);
    expect(await listDiskTree(root)).toEqual([]);
  });

  it("with `within`: a directory that is a link to outside is outside_root, and nothing is created", async () => {
    const { root, outside } = await places();
    await symlink(outside, join(root, "link"));
    const error = await ops.writeFile(join(root, "link", "f.txt"), "x", { within: root }).catch((e) => e);
    expect(isOperationError(error, "outside_root")).toBe(true);
    expect(await listDiskTree(outside)).toEqual([]);
    // A link that stays inside the root is fine.
    await symlink("sub", join(root, "inner"));
    await ops.writeFile(join(root, "inner", "g.txt"), "y", { within: root });
    expect(await readFile(join(root, "sub", "g.txt"), "utf8")).toBe("y");
  });
});

describe("FIFOs, sockets and devices", () => {
  it("readFile, openRead, writeFile refuse a FIFO with special_file, and the SFTP channel keeps working", async () => {
    const { root } = await places();
    const fifo = join(root, "pipe");
    execFileSync("mkfifo", [fifo]);
    await writeFile(join(root, "plain.txt"), "plain");
    const codeOf = (action: () => Promise<unknown>) =>
      action().then(
        () => "ok",
        (error: unknown) => (isOperationError(error) ? error.code : String(error)),
      );
    expect(await codeOf(() => ops.readFile(fifo))).toBe("special_file");
    expect(
      await codeOf(async () => {
        for await (const _ of ops.openRead(fifo)) break;
      }),
    ).toBe("special_file");
    expect(await codeOf(() => ops.writeFile(fifo, "x"))).toBe("special_file");
    expect(await codeOf(() => ops.readFile("/dev/null"))).toBe("special_file");
    // A blocked open would have stalled every later request of the channel.
    expect(new TextDecoder().decode(await ops.readFile(join(root, "plain.txt")))).toBe("plain");
    expect((await readdir(root)).sort()).toEqual(["pipe", "plain.txt", "sub"]);
  });
});

describe("temp file names", () => {
  it("a write's temp file is named by the shared shape (owner: this channel's SFTP server), and gone afterwards", async () => {
    const { sub } = await places();
    let seen = "";
    const { error } = await swapDuringWrite(
      sub,
      () => ops.writeFile(join(sub, "named.bin"), big()),
      (name) => {
        seen = name;
        return sub;
      },
    );
    expect(error).toBeUndefined();
    expect(isTempFileName(seen), seen).toBe(true);
    const pid = parseTempFileName(seen)?.owner.pid as number;
    expect(await readlink(`/proc/${pid}/exe`)).toMatch(/sshd|sftp-server/);
    expect(await readdir(sub)).toEqual(["named.bin"]);
  });
});
