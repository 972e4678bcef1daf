import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { isOperationError } from "@tackle/operations";
import { afterEach, describe, expect, it } from "vitest";
import { createSshOperations, isSshConnectionError, type SshOperations } from "../src/index.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

const servers: TestSshServer[] = [];
const adapters: SshOperations[] = [];
const listeners: Server[] = [];

afterEach(async () => {
  await Promise.allSettled(adapters.splice(0).map((ops) => ops.dispose()));
  await Promise.allSettled(servers.splice(0).map((server) => server.stop()));
  for (const listener of listeners.splice(0)) listener.close();
});

async function rejection(action: Promise<unknown>): Promise<Error> {
  try {
    await action;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

function thrown(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

/** A TCP server on 127.0.0.1 that accepts and never says a word (a stuck host or a wrong port). */
async function silentServer(): Promise<number> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  server.on("close", () => {
    for (const socket of sockets) socket.destroy();
  });
  listeners.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return typeof address === "object" && address ? address.port : 0;
}

describe("connect errors name host, port and the next step", () => {
  it("an unknown host name is host_not_found", async () => {
    const ops = createSshOperations({
      host: "no-such-host.invalid",
      username: "me",
      agent: "/nonexistent.sock",
      hostKey: { insecureAcceptAny: true },
    });
    adapters.push(ops);
    const error = await rejection(ops.connect());
    expect(isSshConnectionError(error, "host_not_found")).toBe(true);
    expect(isOperationError(error, "connection_lost")).toBe(true);
    expect(error.message).toContain('"no-such-host.invalid"');
    expect(error.message).toContain("Check the spelling");
    expect(isSshConnectionError(error) && error.endpoint).toEqual({
      host: "no-such-host.invalid",
      port: 22,
      username: "me",
    });
  });

  it("no handshake within readyTimeoutMs is connect_timeout with the limit", async () => {
    const port = await silentServer();
    const ops = createSshOperations({
      host: "127.0.0.1",
      port,
      username: "me",
      agent: "/nonexistent.sock",
      hostKey: { insecureAcceptAny: true },
      readyTimeoutMs: 300,
    });
    adapters.push(ops);
    const error = await rejection(ops.connect());
    expect(isSshConnectionError(error, "connect_timeout")).toBe(true);
    expect(isOperationError(error, "timeout")).toBe(true);
    expect(error.message).toContain(`127.0.0.1:${port} within 0.3 s`);
    expect(error.message).toContain("readyTimeoutMs");
    expect(isSshConnectionError(error) && error.timeoutMs).toBe(300);
  });
});

describe("private keys", () => {
  async function encryptedCopy(server: TestSshServer, passphrase: string): Promise<string> {
    const path = join(server.dir, `user_key_${passphrase.length}`);
    execFileSync("cp", [server.privateKeyPath, path]);
    execFileSync("ssh-keygen", ["-q", "-p", "-a", "2", "-P", "", "-N", passphrase, "-f", path]);
    return readFile(path, "utf8");
  }

  it("an encrypted key without a passphrase is key_encrypted at creation, with how to give one", async () => {
    const server = await startSshServer();
    servers.push(server);
    const key = await encryptedCopy(server, "s3cret");
    const error = thrown(() =>
      createSshOperations({
        ...server.connectOptions,
        privateKey: key,
      }),
    );
    expect(isSshConnectionError(error, "key_encrypted")).toBe(true);
    expect(isOperationError(error, "invalid_argument")).toBe(true);
    expect(error.message).toContain("passphrase");
    expect(error.message).toContain("ssh-agent");
  });

  it("a wrong passphrase is key_invalid; the right one logs in", async () => {
    const server = await startSshServer();
    servers.push(server);
    const key = await encryptedCopy(server, "s3cret");
    const base = {
      ...server.connectOptions,
      privateKey: key,
    };
    const error = thrown(() => createSshOperations({ ...base, passphrase: "wrong" }));
    expect(isSshConnectionError(error, "key_invalid")).toBe(true);
    expect(error.message).toContain("passphrase does not decrypt");
    const ops = createSshOperations({ ...base, passphrase: "s3cret" });
    adapters.push(ops);
    expect((await ops.stat("/")).type).toBe("directory");
  });

  it("something that is not a private key is key_invalid", async () => {
    const server = await startSshServer();
    servers.push(server);
    const publicKey = await readFile(`${server.privateKeyPath}.pub`, "utf8");
    const error = thrown(() =>
      createSshOperations({
        host: server.host,
        username: "me",
        privateKey: publicKey,
        hostKey: { insecureAcceptAny: true },
      }),
    );
    expect(isSshConnectionError(error, "key_invalid")).toBe(true);
    expect(error.message).toContain(".pub");
  });
});
