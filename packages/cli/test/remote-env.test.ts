import fs from "node:fs";
import path from "node:path";
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
