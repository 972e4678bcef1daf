import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDockerOperations, DockerOperationError, type SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

let session: SessionContainer;
beforeAll(async () => {
  session = await startTestContainer();
  await session.writeFile("/tmp/hello.txt", "hello engine\n");
});
afterAll(async () => {
  await session?.dispose();
});

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function rejection(promise: Promise<unknown>): Promise<DockerOperationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DockerOperationError);
  return error as DockerOperationError;
}

describe("reaching the engine", () => {
  it("over tcp:// with TLS and a client certificate", async () => {
    const { host, clientCertDir } = inject("dockerTls");
    const tls = {
      ca: readFileSync(join(clientCertDir, "ca.pem")),
      cert: readFileSync(join(clientCertDir, "cert.pem")),
      key: readFileSync(join(clientCertDir, "key.pem")),
    };
    const ops = createDockerOperations({ container: session.containerId, docker: { host, tls } });
    try {
      expect(text(await ops.readFile("/tmp/hello.txt"))).toBe("hello engine\n");
      const run = await ops.exec("echo over tls", { shell: "sh", cwd: "/", onChunk: () => {} });
      expect(run.status).toBe("completed");
    } finally {
      await ops.dispose();
    }
  });

  it("a TLS engine refuses a client without a certificate", async () => {
    const { host, clientCertDir } = inject("dockerTls");
    const error = await rejection(
      createDockerOperations({
        container: session.containerId,
        docker: { host, tls: { ca: readFileSync(join(clientCertDir, "ca.pem")) } },
      }).connect(),
    );
    expect(error.endpoint?.url).toBe(host);
  });

  it("through dial: every request, exec streams included, is a stream the caller opened", async () => {
    const dialed: string[] = [];
    const dial = async (target: { socketPath: string }): Promise<Duplex> => {
      dialed.push(target.socketPath);
      // A real stream to the engine: the private engine's socket stands in for the remote one.
      return connect(inject("dockerSocket"));
    };
    const ops = createDockerOperations({
      container: session.containerId,
      docker: { host: "ssh://tester@build.example:2222/run/engine.sock", dial },
    });
    try {
      expect(text(await ops.readFile("/tmp/hello.txt"))).toBe("hello engine\n");
      const chunks: string[] = [];
      const run = await ops.exec("echo via dial", {
        shell: "sh",
        cwd: "/",
        onChunk: (chunk) => chunks.push(text(chunk.bytes)),
      });
      expect(run.status).toBe("completed");
      expect(chunks.join("")).toContain("via dial");
      expect(dialed.length).toBeGreaterThan(1);
      expect(new Set(dialed)).toEqual(new Set(["/run/engine.sock"]));
    } finally {
      await ops.dispose();
    }
  });

  it("a dial that fails is engine_unreachable naming the endpoint, with the dialer's error as cause", async () => {
    const refusal = new Error("SSH connection to build.example:22 refused.");
    const error = await rejection(
      createDockerOperations({
        container: "x",
        docker: { host: "ssh://me@build.example", dial: () => Promise.reject(refusal) },
      }).connect(),
    );
    expect(error.reason).toBe("engine_unreachable");
    expect(error.endpoint).toEqual({
      url: "ssh://me@build.example:22/var/run/docker.sock",
      source: "docker option",
    });
    expect(error.message).toContain("SSH connection to build.example:22 refused");
    expect(error.cause).toBe(refusal);
  });

  it("ssh:// without a dial is engine_config saying what to pass, thrown at creation", () => {
    let error: unknown;
    try {
      createDockerOperations({ container: "x", docker: { host: "ssh://me@build.example" } });
    } catch (caught) {
      error = caught;
    }
    if (!(error instanceof DockerOperationError))
      throw new Error(`expected a DockerOperationError, got ${error}`);
    expect(error.reason).toBe("engine_config");
    expect(error.code).toBe("invalid_argument");
    expect(error.message).toContain("docker: { dial }");
  });
});
