import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { isOperationError } from "@tackle/operations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

describe("openUnixSocket", () => {
  let server: TestSshServer;
  let ops: SshOperations;
  let socketPath: string;
  const echo = createServer((socket) => socket.pipe(socket));
  beforeAll(async () => {
    server = await startSshServer();
    socketPath = join(server.dir, "echo.sock");
    await new Promise<void>((resolve) => echo.listen(socketPath, resolve));
    ops = createSshOperations(server.connectOptions);
  });
  afterAll(async () => {
    await ops?.dispose();
    await new Promise((resolve) => echo.close(resolve));
    await rm(socketPath, { force: true });
    await server?.stop();
  });

  it("opens a stream to a unix socket on the remote host over the adapter's connection", async () => {
    const stream = await ops.openUnixSocket(socketPath);
    const reply = new Promise<string>((resolve) =>
      stream.once("data", (chunk: Buffer) => resolve(chunk.toString())),
    );
    stream.write("ping over ssh");
    expect(await reply).toBe("ping over ssh");
    stream.end();
  });

  it("a path where nothing listens is not_found, naming the path", async () => {
    const missing = join(server.dir, "nothing.sock");
    const error = await ops.openUnixSocket(missing).catch((caught: unknown) => caught);
    expect(isOperationError(error, "not_found")).toBe(true);
    expect((error as Error).message).toContain(missing);
  });
});
