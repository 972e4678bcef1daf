import { execFileSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { isOperationError } from "@tackle/operations";
import { afterEach, describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { tempDir } from "./helpers.js";

const ops = createLocalOperations();
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A FIFO nobody writes to: opening it for reading the ordinary way blocks forever. */
async function fifo(): Promise<string> {
  const path = join(await tempDir(), "pipe");
  execFileSync("mkfifo", [path]);
  return path;
}

async function socketFile(): Promise<string> {
  const path = join(await tempDir(), "sock");
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return path;
}

async function codeOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
    return "ok";
  } catch (error) {
    return isOperationError(error) ? error.code : String(error);
  }
}

describe("FIFOs, sockets and devices are never opened", () => {
  it("readFile, openRead and writeFile refuse a FIFO with special_file, without blocking", async () => {
    const path = await fifo();
    expect(await codeOf(() => ops.readFile(path))).toBe("special_file");
    expect(
      await codeOf(async () => {
        for await (const _ of ops.openRead(path)) break;
      }),
    ).toBe("special_file");
    expect(await codeOf(() => ops.writeFile(path, "x"))).toBe("special_file");
    // The FIFO is still a FIFO, and nothing else appeared next to it.
    expect((await ops.lstat(path)).type).toBe("other");
    expect(await readdir(join(path, ".."))).toEqual(["pipe"]);
  });

  it("a socket and a character device are refused the same way", async () => {
    const socket = await socketFile();
    expect(await codeOf(() => ops.readFile(socket))).toBe("special_file");
    expect(await codeOf(() => ops.writeFile(socket, "x"))).toBe("special_file");
    expect(await codeOf(() => ops.readFile("/dev/null"))).toBe("special_file");
    expect(
      await codeOf(async () => {
        for await (const _ of ops.openRead("/dev/zero")) break;
      }),
    ).toBe("special_file");
  });

  it("a link to a FIFO is refused too, and the message says what the path is", async () => {
    const path = await fifo();
    const link = join(path, "..", "link");
    await ops.symlink(path, link);
    const error = await ops.readFile(link).catch((caught: unknown) => caught);
    expect(isOperationError(error, "special_file")).toBe(true);
    expect((error as Error).message).toContain("FIFO");
  });

  it("regular files still read and write as before after refusals", async () => {
    const dir = await tempDir();
    for (let i = 0; i < 8; i++) await codeOf(async () => ops.readFile(await fifo()));
    await writeFile(join(dir, "plain.txt"), "plain");
    expect(new TextDecoder().decode(await ops.readFile(join(dir, "plain.txt")))).toBe("plain");
    await ops.writeFile(join(dir, "plain.txt"), "again");
    expect(await readFile(join(dir, "plain.txt"), "utf8")).toBe("again");
  });
});
