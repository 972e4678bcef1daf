import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOperationError } from "@tackle/operations";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createDockerOperations, DockerOperationError, type SessionContainer } from "../src/index.js";
import { IMAGE_TEST_USER } from "../src/testing/index.js";
import { testEngine } from "./engine.js";
import { startTestContainer } from "./session.js";

const sessions: SessionContainer[] = [];
const session = async (...args: Parameters<typeof startTestContainer>) => {
  const started = await startTestContainer(...args);
  sessions.push(started);
  return started;
};
afterEach(async () => {
  for (const started of sessions.splice(0)) await started.dispose();
});

/** The rejection of `promise`, which must be a DockerOperationError. */
async function dockerFailure(promise: Promise<unknown>): Promise<DockerOperationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DockerOperationError);
  return error as DockerOperationError;
}

describe("engine and container errors", () => {
  it("creating the adapter is synchronous and connects nothing; bad options throw at once", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tackle-no-engine-"));
    try {
      // No engine behind the socket: creation still succeeds, the first use says why it cannot connect.
      const adapter = createDockerOperations({
        container: "x",
        docker: { socketPath: join(dir, "docker.sock") },
      });
      expect(adapter.container).toBe("x");
      expect(adapter.homeDir).toBeUndefined();
      expect((await dockerFailure(adapter.readdir("/"))).reason).toBe("engine_unreachable");
      await adapter.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(() => createDockerOperations({ container: " " })).toThrow(
      expect.objectContaining({ code: "invalid_argument" }),
    );
  });

  it("an unreachable engine is engine_unreachable (code connection_lost), naming the socket", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tackle-no-engine-"));
    try {
      const socketPath = join(dir, "docker.sock");
      const error = await dockerFailure(
        createDockerOperations({ container: "x", docker: { socketPath } }).connect(),
      );
      expect(error.reason).toBe("engine_unreachable");
      expect(error.code).toBe("connection_lost");
      expect(error.message).toContain(socketPath);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a host user without access to the socket gets engine_permission_denied", async () => {
    // Only a real other user shows it (root passes every permission check): run the built
    // adapter as `nobody` against the private engine, whose directory is 0700 root.
    const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    expect(existsSync(entry), "build the package first (turbo runs build before test)").toBe(true);
    const script = `import { createDockerOperations } from ${JSON.stringify(entry)};
      createDockerOperations({ container: "x", docker: { socketPath: ${JSON.stringify(inject("dockerSocket"))} } })
        .connect().then(() => console.log("connected"), (e) => console.log(JSON.stringify({ code: e.code, reason: e.reason })));`;
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--input-type=module", "-e", script],
        { uid: 65534, gid: 65534, timeout: 20_000 },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      );
    });
    expect(JSON.parse(out)).toEqual({ code: "permission_denied", reason: "engine_permission_denied" });
  });

  it("a missing container is container_not_found (code not_found)", async () => {
    const error = await dockerFailure(
      createDockerOperations({
        container: "no-such-container",
        docker: { socketPath: inject("dockerSocket") },
      }).connect(),
    );
    expect(error.reason).toBe("container_not_found");
    expect(error.code).toBe("not_found");
  });

  it("a stopped container is container_not_running when it connects; the next call checks again", async () => {
    const ops = await session();
    const engine = testEngine().getContainer(ops.containerId);
    await engine.stop({ t: 0 });
    const adapter = createDockerOperations({
      container: ops.containerId,
      docker: { socketPath: inject("dockerSocket") },
    });
    const error = await dockerFailure(adapter.connect());
    expect(error.reason).toBe("container_not_running");
    // A file call connects first, so it fails the same way rather than with a lower-level error.
    expect((await dockerFailure(adapter.stat("/"))).reason).toBe("container_not_running");
    await engine.start();
    expect((await adapter.stat("/")).type).toBe("directory");
    expect(adapter.homeDir).toBeDefined();
    await adapter.dispose();
  });

  it("a sandboxed call in a container with a writable root is refused with not_supported, nothing run", async () => {
    const ops = await session();
    const error = await ops
      .exec("touch /tmp/sandbox-ran", { shell: "sh", cwd: "/", sandbox: { network: "off" } })
      .catch((e: unknown) => e);
    expect(isOperationError(error, "not_supported")).toBe(true);
    expect((error as Error).message).toMatch(/root file system is writable/);
    expect((await ops.exec("test -e /tmp/sandbox-ran", { shell: "sh", cwd: "/" })).exitCode).toBe(1);
  });

  it("a user the container does not know is user_not_found (code invalid_argument)", async () => {
    const ops = await session();
    const error = await dockerFailure(
      createDockerOperations({
        container: ops.containerId,
        user: "nobody-here",
        docker: { socketPath: inject("dockerSocket") },
      }).connect(),
    );
    expect(error.reason).toBe("user_not_found");
    expect(error.code).toBe("invalid_argument");
  });

  it("a missing image is image_not_found and is never pulled", async () => {
    const error = await dockerFailure(startTestContainer({ image: "tackle-absent:never" }));
    expect(error.reason).toBe("image_not_found");
    expect(error.code).toBe("not_found");
    // The next step, named: the adapter never pulls.
    expect(error.message).toContain("docker pull tackle-absent:never");
  });

  it("a shell the image lacks is not_supported", async () => {
    const ops = await session();
    await expect(ops.exec("Get-Date", { shell: "pwsh", cwd: "/" })).rejects.toMatchObject({
      code: "not_supported",
    });
  });

  it("dispose removes the session container, once", async () => {
    const ops = await startTestContainer();
    await ops.dispose();
    await ops.dispose();
    await expect(testEngine().getContainer(ops.containerId).inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});

describe("running as a non-root user", () => {
  it("the container's permissions apply: permission_denied where the user may not go", async () => {
    const ops = await session({ user: IMAGE_TEST_USER.name });
    expect(ops.homeDir).toBe(IMAGE_TEST_USER.home);
    await ops.writeFile(`${IMAGE_TEST_USER.home}/mine.txt`, "ok");
    expect(new TextDecoder().decode(await ops.readFile(`${IMAGE_TEST_USER.home}/mine.txt`))).toBe("ok");
    for (const attempt of [
      () => ops.writeFile("/root/x.txt", "x"),
      () => ops.readdir("/root"),
      () => ops.writeFile("/etc/passwd", "x"),
      () => ops.mkdir("/bin/new"),
      () => ops.remove("/etc/group"),
      () => ops.chmod("/etc/passwd", 0o777),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isOperationError(error, "permission_denied"), String(error)).toBe(true);
    }
    const id = await ops.exec("id -u", { shell: "sh", cwd: "/", onChunk: () => {} });
    expect(id.status).toBe("completed");
    const found: string[] = [];
    for await (const path of ops.search?.files({ path: IMAGE_TEST_USER.home }) ?? []) found.push(path);
    expect(found).toEqual(["mine.txt"]);
  });
});

describe("search placement", () => {
  it("with ripgrepPath false and no rg in the image, search is left to the tools' portable walk", async () => {
    const ops = await session({ ripgrepPath: false });
    expect(ops.search).toBeUndefined();
  });

  it("by default the bundled static rg is copied into the container through the archive endpoint", async () => {
    const ops = await session();
    expect(ops.search).toBeDefined();
    const found = await ops.exec("test -x /tmp/.tackle-rg/rg", { shell: "sh", cwd: "/" });
    expect(found.status).toBe("completed");
  });
});
