import { existsSync } from "node:fs";
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExecSpawn, isOperationError, type Operations } from "@tackle/operations";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDockerOperations, type SessionContainer } from "../src/index.js";
import { testEngine } from "./engine.js";
import { startTestContainer } from "./session.js";

// In a container the container is the sandbox: a session container made for the sandbox gets no
// network, a read-only root with a writable workspace and /tmp, no capabilities; a sandboxed
// call in an existing container runs only when that container gives what it asks, and is
// refused (not_supported, nothing run) naming what is missing otherwise.

async function run(ops: Operations, command: string, cwd = "/") {
  let text = "";
  const spawns: ExecSpawn[] = [];
  const result = await ops.exec(command, {
    shell: "sh",
    cwd,
    timeoutMs: 30_000,
    onChunk: (chunk) => {
      text += Buffer.from(chunk.bytes).toString("utf8");
    },
    onSpawn: (spawn) => spawns.push(spawn),
  });
  return { result, text, spawns };
}

describe("a session container made for the sandbox", () => {
  let host: string;
  let session: SessionContainer;
  beforeAll(async () => {
    host = await realpath(await mkdtemp(join(tmpdir(), "tackle-docker-sandbox-")));
    session = await startTestContainer({ binds: [`${host}:/work`], sandbox: { writable: ["/work"] } });
  });
  afterAll(async () => {
    await session?.dispose();
    await rm(host, { recursive: true, force: true });
  });

  it("is created with no network, a read-only root, tmpfs temp dirs, no capabilities", async () => {
    const info = await testEngine().getContainer(session.containerId).inspect();
    expect(info.HostConfig).toMatchObject({
      NetworkMode: "none",
      ReadonlyRootfs: true,
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
    });
    expect(Object.keys(info.HostConfig.Tmpfs ?? {}).sort()).toEqual(["/tmp", "/var/tmp"]);
  });

  it("every call is reported sandboxed by the container; writes land only in the workspace and /tmp", async () => {
    const { result, text, spawns } = await run(
      session,
      "echo x > /etc/escape 2>&1; echo ws > /work/in-ws.txt; echo t > /tmp/t && cat /tmp/t; cat /proc/net/dev",
    );
    expect(result.sandbox).toMatchObject({ mechanism: "container", network: "off" });
    expect(result.sandbox?.writable).toEqual(expect.arrayContaining(["/work", "/tmp", "/var/tmp"]));
    expect(spawns[0]?.sandbox?.mechanism).toBe("container");
    expect(text).toMatch(/Read-only file system/);
    expect(text).toContain("t\n");
    expect(await readFile(join(host, "in-ws.txt"), "utf8")).toBe("ws\n");
    // No interface but loopback (the file lists each one by name, a colon, then its counters).
    const interfaces = [...text.matchAll(/^\s*([\w.-]+):\s+\d/gm)].map((match) => match[1]);
    expect(interfaces).toEqual(["lo"]);
    const check = await run(session, "test -e /etc/escape && echo found || echo absent");
    expect(check.text).toBe("absent\n");
  });

  it("a call whose writable path is not on a writable mount is refused, nothing run", async () => {
    const error = await session
      .exec("touch /work/should-not-exist", { shell: "sh", cwd: "/", sandbox: { writable: ["/opt"] } })
      .catch((e: unknown) => e);
    expect(isOperationError(error, "not_supported")).toBe(true);
    expect((error as Error).message).toMatch(/\/opt is not on a writable mount/);
    expect(existsSync(join(host, "should-not-exist"))).toBe(false);
  });

  it("an allow list is refused when the container is made", async () => {
    const error = await startTestContainer({ sandbox: { network: { allow: ["registry.npmjs.org"] } } }).catch(
      (e: unknown) => e,
    );
    expect(isOperationError(error, "not_supported")).toBe(true);
    expect((error as Error).message).toMatch(/allow list/);
  });
});

describe("a sandboxed call in an existing container", () => {
  let host: string;
  let plain: SessionContainer;
  beforeAll(async () => {
    host = await realpath(await mkdtemp(join(tmpdir(), "tackle-docker-sandbox-existing-")));
    // Made without the sandbox: no network (the session default), but a writable root.
    plain = await startTestContainer({ binds: [`${host}:/work`] });
  });
  afterAll(async () => {
    await plain?.dispose();
    await rm(host, { recursive: true, force: true });
  });

  it("is refused naming the writable root and how to get a read-only one; nothing runs", async () => {
    const ops = createDockerOperations({
      container: plain.containerId,
      docker: { socketPath: inject("dockerSocket") },
    });
    try {
      const error = await ops
        .exec("touch /work/ran", { shell: "sh", cwd: "/", sandbox: { writable: ["/work"] } })
        .catch((e: unknown) => e);
      expect(isOperationError(error, "not_supported")).toBe(true);
      expect((error as Error).message).toMatch(/root file system is writable/);
      expect((error as Error).message).toMatch(/--read-only/);
      expect(existsSync(join(host, "ran"))).toBe(false);
      // Without the sandbox the same call runs: the refusal came from the check, not the container.
      const unsandboxed = await ops.exec("touch /work/ran", { shell: "sh", cwd: "/" });
      expect(unsandboxed.status).toBe("completed");
      expect(existsSync(join(host, "ran"))).toBe(true);
    } finally {
      await ops.dispose();
    }
  });
});
