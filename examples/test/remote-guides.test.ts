// The SSH and Docker variants of getting started, against the private sshd and dockerd the
// adapters' own suites use (root required, as for those suites).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  importMinimalImage,
  type PrivateEngine,
  startPrivateEngine,
} from "@tackle/operations-docker/testing";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  startSshServer,
  type TestSshServer,
} from "../../packages/operations-ssh/test/support/ssh-server.mjs";
import { expectFirstSession } from "./first-session-output.js";
import { runGuide } from "./run-guide.js";

describe("getting started over SSH", () => {
  let server: TestSshServer;
  let folder: string;
  beforeAll(async () => {
    server = await startSshServer();
    folder = await mkdtemp(join(tmpdir(), "tackle-guide-ssh-"));
  });
  afterAll(async () => {
    await server?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("runs the same session through a pinned-host-key SSH connection", async () => {
    const { stdout } = await runGuide("getting-started-ssh", {
      args: [join(folder, "work")],
      env: {
        SSH_HOST: server.host,
        SSH_PORT: String(server.port),
        SSH_USER: server.username,
        SSH_KEY: server.privateKeyPath,
        SSH_KNOWN_HOSTS: server.knownHostsPath,
      },
    });
    expectFirstSession(stdout);
  });
});

describe("getting started in Docker", () => {
  let engine: PrivateEngine;
  let image: string;
  beforeAll(async () => {
    engine = await startPrivateEngine();
    image = await importMinimalImage(engine);
  });
  afterAll(async () => {
    await engine?.stop();
  });

  it("runs the same session in a throwaway container", async () => {
    const { stdout } = await runGuide("getting-started-docker", {
      env: { DOCKER_HOST: `unix://${engine.socketPath}`, IMAGE: image },
    });
    expectFirstSession(stdout);
  });
});
