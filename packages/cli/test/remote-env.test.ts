import fs from "node:fs";
import path from "node:path";
import { startSessionContainer } from "@tackle/operations-docker";
import {
  importMinimalImage,
  type PrivateEngine,
  startPrivateEngine,
} from "@tackle/operations-docker/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The SSH adapter's own test server: a real sshd on 127.0.0.1, owned and stopped by this file.
import { startSshServer, type TestSshServer } from "../../operations-ssh/test/support/ssh-server.mjs";
import { tackle, tempDir } from "./helpers.js";

describe("tackle over ssh://", () => {
  let server: TestSshServer;
  let workspace: { dir: string; cleanup: () => void };
  beforeAll(async () => {
    server = await startSshServer();
    workspace = tempDir();
    fs.writeFileSync(path.join(workspace.dir, "remote.txt"), "on the other side\n");
  });
  afterAll(async () => {
    await server?.stop();
    workspace?.cleanup();
  });
  const sshArgs = () => [
    "--env",
    `ssh://${server.username}@127.0.0.1:${server.port}${workspace.dir}`,
    "--identity",
    server.privateKeyPath,
    "--known-hosts",
    server.knownHostsPath,
  ];

  it("runs read and bash in the URL's directory on the remote host", async () => {
    const read = await tackle(["tool", "read", '{"path":"remote.txt"}', ...sshArgs()]);
    expect(read.stderr).toBe("");
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("on the other side");
    const bash = await tackle(["tool", "bash", '{"command":"pwd"}', ...sshArgs()]);
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain(workspace.dir);
  });

  it("refuses an unknown host key with how to trust it", async () => {
    const emptyKnownHosts = path.join(workspace.dir, "known_hosts_empty");
    fs.writeFileSync(emptyKnownHosts, "");
    const args = sshArgs();
    args[args.indexOf("--known-hosts") + 1] = emptyKnownHosts;
    const result = await tackle(["tool", "ls", "{}", ...args]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/host key/i);
    expect(result.stderr).toContain("ssh-keyscan");
  });
});

describe("tackle over docker://", () => {
  let engine: PrivateEngine;
  let container: Awaited<ReturnType<typeof startSessionContainer>>;
  beforeAll(async () => {
    engine = await startPrivateEngine();
    const image = await importMinimalImage(engine);
    container = await startSessionContainer({ image, docker: { socketPath: engine.socketPath } });
    await container.mkdir("/work/demo", { recursive: true });
    await container.writeFile("/work/demo/inside.txt", "inside the container\n");
  }, 120_000);
  afterAll(async () => {
    await container?.dispose();
    await engine?.stop();
  });
  const env = () => ({ DOCKER_HOST: `unix://${engine.socketPath}` });

  it("runs read, grep and bash inside the container", async () => {
    const url = `docker://${container.containerId}/work/demo`;
    const read = await tackle(["tool", "read", '{"path":"inside.txt"}', "--env", url], { env: env() });
    expect(read.stderr).toBe("");
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("inside the container");
    const grep = await tackle(["tool", "grep", '{"pattern":"container"}', "--env", url], { env: env() });
    expect(grep.code).toBe(0);
    expect(grep.stdout).toContain("inside.txt");
    const bash = await tackle(["tool", "bash", '{"command":"cat /etc/hostname; pwd"}', "--env", url], {
      env: env(),
    });
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain("/work/demo");
  });

  it("says clearly when the container does not exist", async () => {
    const result = await tackle(["tool", "ls", "{}", "--env", "docker://no-such-container"], { env: env() });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/no-such-container/);
  });
});
