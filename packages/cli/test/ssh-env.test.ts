import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
// The SSH adapter's own test server: a real sshd on 127.0.0.1, owned and stopped by this file.
import { startSshServer, type TestSshServer } from "../../operations-ssh/test/support/ssh-server.mjs";
import {
  artifactPathIn,
  EXIT,
  expectEnvironmentError,
  expectSixPiecesThroughTheCli,
  expectUsageError,
  freePort,
  ls,
  silentServer,
  tackle,
  tempDir,
} from "./helpers.js";

let server: TestSshServer;
let workspace: { dir: string; cleanup: () => void };
beforeAll(async () => {
  server = await startSshServer();
  workspace = tempDir();
  fs.mkdirSync(path.join(workspace.dir, "sub"));
  fs.writeFileSync(path.join(workspace.dir, "sub", "here.txt"), "in sub\n");
});
afterAll(async () => {
  await server?.stop();
  workspace?.cleanup();
});

const url = (dir = workspace.dir) => `ssh://${server.username}@127.0.0.1:${server.port}${dir}`;
const trusted = () => ["--identity", server.privateKeyPath, "--known-hosts", server.knownHostsPath];

describe("unreachable ssh hosts: host, port and the next step", () => {
  it("connection refused", async () => {
    const port = await freePort();
    const result = await ls(["--env", `ssh://me@127.0.0.1:${port}`, ...trusted()]);
    expectEnvironmentError(result);
    expect(result.stderr).toContain(`Connection refused by 127.0.0.1:${port}`);
    expect(result.stderr).toContain("Check the host and port");
    expect(result.stderr).toContain("sshd runs");
  });

  it("an unknown host name", async () => {
    const result = await ls(["--env", "ssh://me@no-such-host.invalid", "--identity", server.privateKeyPath]);
    expectEnvironmentError(result);
    expect(result.stderr).toContain('Unknown host "no-such-host.invalid"');
    expect(result.stderr).toContain("Check its spelling");
  });

  it("a handshake that never comes: --connect-timeout bounds the wait and the message names the flag", async () => {
    const silent = await silentServer();
    try {
      const result = await ls([
        "--env",
        `ssh://me@127.0.0.1:${silent.port}`,
        "--connect-timeout",
        "0.5",
        ...trusted(),
      ]);
      expectEnvironmentError(result);
      expect(result.stderr).toContain(`No SSH handshake with 127.0.0.1:${silent.port} within 0.5 s`);
      expect(result.stderr).toContain("--connect-timeout SECONDS");
    } finally {
      await silent.close();
    }
  });

  it("--connect-timeout that is not a positive number is a usage error", async () => {
    const result = await ls(["--env", url(), "--connect-timeout", "soon", ...trusted()]);
    expectUsageError(result);
    expect(result.stderr).toContain("--connect-timeout takes a positive number of seconds");
  });

  it("a key the server does not accept names the user, host and port, and what to check", async () => {
    const other = path.join(server.dir, "other_ed25519");
    const result = await ls(["--env", url(), "--identity", other, "--known-hosts", server.knownHostsPath]);
    expectEnvironmentError(result);
    expect(result.stderr).toContain(`SSH login as ${server.username} on 127.0.0.1:${server.port} refused`);
    expect(result.stderr).toContain("authorized_keys");
  });
});

describe("host keys", () => {
  it("--host-key pins the server's fingerprint instead of a known_hosts file", async () => {
    const result = await tackle([
      "tool",
      "read",
      '{"path":"sub/here.txt"}',
      "--env",
      url(),
      "--identity",
      server.privateKeyPath,
      "--host-key",
      server.hostFingerprint,
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain("in sub");
  });

  it("a pinned fingerprint that does not match is refused, offering the key seen as a --host-key", async () => {
    const wrong = `SHA256:${"A".repeat(43)}`;
    const result = await ls(["--env", url(), "--identity", server.privateKeyPath, "--host-key", wrong]);
    expectEnvironmentError(result);
    expect(result.stderr).toContain("matches none of the pinned fingerprints");
    expect(result.stderr).toContain(`--host-key ${server.hostFingerprint}`);
    expect(result.stderr).not.toContain("hostKey:");
  });

  it("an unknown host key suggests ssh-keyscan and the --host-key flag", async () => {
    const empty = path.join(workspace.dir, "known_hosts_empty");
    fs.writeFileSync(empty, "");
    const result = await ls(["--env", url(), "--identity", server.privateKeyPath, "--known-hosts", empty]);
    expectEnvironmentError(result);
    expect(result.stderr).toContain(`ssh-keyscan -p ${server.port} 127.0.0.1 >> ${empty}`);
    expect(result.stderr).toContain(`--host-key ${server.hostFingerprint}`);
  });

  it("--known-hosts naming a missing file says the file is missing", async () => {
    const missing = path.join(workspace.dir, "no_such_known_hosts");
    const result = await ls(["--env", url(), "--identity", server.privateKeyPath, "--known-hosts", missing]);
    expectUsageError(result);
    expect(result.stderr).toContain(`--known-hosts ${missing}: no such file`);
    expect(result.stderr).toContain("Check the path");
    expect(result.stderr).not.toContain(">>");
  });

  it("a missing default ~/.ssh/known_hosts is named as missing, with how to start it or pin the key", async () => {
    const home = tempDir("tackle-home-");
    try {
      const result = await ls(["--env", url(), "--identity", server.privateKeyPath], {
        env: { HOME: home.dir },
      });
      expectEnvironmentError(result);
      expect(result.stderr).toContain(`${path.join(home.dir, ".ssh", "known_hosts")} does not exist`);
      expect(result.stderr).toContain(`--host-key ${server.hostFingerprint}`);
    } finally {
      home.cleanup();
    }
  });

  it("--host-key with --known-hosts, or a malformed fingerprint, is a usage error", async () => {
    const both = await ls(["--env", url(), ...trusted(), "--host-key", server.hostFingerprint]);
    expectUsageError(both);
    expect(both.stderr).toContain("give one");
    const malformed = await ls(["--env", url(), "--identity", server.privateKeyPath, "--host-key", "abc"]);
    expectUsageError(malformed);
    expect(malformed.stderr).toContain("SHA256");
  });
});

describe("identity files", () => {
  let encrypted: string;
  beforeAll(() => {
    encrypted = path.join(workspace.dir, "encrypted_key");
    fs.copyFileSync(server.privateKeyPath, encrypted);
    fs.chmodSync(encrypted, 0o600);
    // Few KDF rounds: what is tested is how the passphrase gets there, not bcrypt's cost.
    execFileSync("ssh-keygen", ["-q", "-p", "-a", "2", "-P", "", "-N", "open sesame", "-f", encrypted]);
  });

  it("a missing or unusable --identity names the flag and the path", async () => {
    const missing = path.join(workspace.dir, "no_key");
    const result = await ls(["--env", url(), "--identity", missing, "--known-hosts", server.knownHostsPath]);
    expectUsageError(result);
    expect(result.stderr).toContain(`--identity ${missing}: no such file`);
    const directory = await ls([
      "--env",
      url(),
      "--identity",
      workspace.dir,
      "--known-hosts",
      server.knownHostsPath,
    ]);
    expectUsageError(directory);
    expect(directory.stderr).toContain(`--identity ${workspace.dir} is a directory`);
    const publicKey = await ls([
      "--env",
      url(),
      "--identity",
      `${server.privateKeyPath}.pub`,
      "--known-hosts",
      server.knownHostsPath,
    ]);
    expectUsageError(publicKey);
    expect(publicKey.stderr).toContain(".pub file");
  });

  it("an encrypted key without a passphrase says how to give one", async () => {
    const result = await ls([
      "--env",
      url(),
      "--identity",
      encrypted,
      "--known-hosts",
      server.knownHostsPath,
    ]);
    expectUsageError(result);
    expect(result.stderr).toContain(`--identity ${encrypted} is encrypted`);
    expect(result.stderr).toContain("--passphrase-env VAR");
    expect(result.stderr).toContain(`ssh-add ${encrypted}`);
  });

  it("--passphrase-env reads the passphrase from the named variable; a wrong or unset one is a usage error", async () => {
    const args = ["tool", "read", '{"path":"sub/here.txt"}', "--env", url(), "--identity", encrypted];
    const ok = await tackle(
      [...args, "--known-hosts", server.knownHostsPath, "--passphrase-env", "KEY_PASS"],
      {
        env: { KEY_PASS: "open sesame" },
      },
    );
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(EXIT.ok);
    expect(ok.stdout).toContain("in sub");
    const wrong = await tackle(
      [...args, "--known-hosts", server.knownHostsPath, "--passphrase-env", "KEY_PASS"],
      {
        env: { KEY_PASS: "nope" },
      },
    );
    expectUsageError(wrong);
    expect(wrong.stderr).toContain("the passphrase in KEY_PASS does not decrypt it");
    const unset = await tackle([
      ...args,
      "--known-hosts",
      server.knownHostsPath,
      "--passphrase-env",
      "NO_SUCH_VARIABLE_X",
    ]);
    expectUsageError(unset);
    expect(unset.stderr).toContain("NO_SUCH_VARIABLE_X is not set");
  });

  it("an encrypted key loaded into an ssh-agent works without --identity", async () => {
    const socket = path.join(workspace.dir, "agent.sock");
    // A private agent in the foreground, so it is ours to end by pid.
    const agent = spawn("ssh-agent", ["-D", "-a", socket], { stdio: "ignore" });
    try {
      await waitFor(() => fs.existsSync(socket));
      const askpass = path.join(workspace.dir, "askpass.sh");
      fs.writeFileSync(askpass, "#!/bin/sh\necho 'open sesame'\n", { mode: 0o700 });
      execFileSync("ssh-add", ["-q", encrypted], {
        env: {
          ...process.env,
          SSH_AUTH_SOCK: socket,
          SSH_ASKPASS: askpass,
          SSH_ASKPASS_REQUIRE: "force",
          DISPLAY: ":0",
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      const result = await tackle(
        ["tool", "read", '{"path":"sub/here.txt"}', "--env", url(), "--known-hosts", server.knownHostsPath],
        { env: { SSH_AUTH_SOCK: socket } },
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(EXIT.ok);
      expect(result.stdout).toContain("in sub");
    } finally {
      agent.kill("SIGTERM");
    }
  });
});

describe("the remote working directory", () => {
  it("a relative --cwd is resolved on the remote side, against the URL's path", async () => {
    const elsewhere = tempDir();
    try {
      const result = await tackle(
        ["tool", "bash", '{"command":"pwd"}', "--env", url(), "--cwd", "sub", ...trusted()],
        {
          cwd: elsewhere.dir,
        },
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(EXIT.ok);
      expect(result.stdout).toContain(path.join(workspace.dir, "sub"));
    } finally {
      elsewhere.cleanup();
    }
  });

  it("a remote directory that does not exist is named before any tool runs", async () => {
    const missing = path.join(workspace.dir, "gone");
    const result = await tackle([
      "tool",
      "read",
      '{"path":"README.md"}',
      "--env",
      url(missing),
      ...trusted(),
    ]);
    expectUsageError(result);
    expect(result.stderr).toContain(`The working directory ${missing} does not exist in ssh://`);
    expect(result.stderr).not.toContain("README.md");
    const relative = await ls(["--env", url(), "--cwd", "nope", ...trusted()]);
    expectUsageError(relative);
    expect(relative.stderr).toContain(path.join(workspace.dir, "nope"));
  });

  it("records the six pieces of a bash and an edit as the library does, and names the SSH host, port and user", async () => {
    const environment = await expectSixPiecesThroughTheCli(["--env", url(), ...trusted()], {
      auditFile: path.join(workspace.dir, "..", `audit-ssh-${process.pid}.jsonl`),
    });
    expect(environment).toEqual({
      id: `ssh://${server.username}@127.0.0.1:${server.port}`,
      kind: "ssh",
      host: "127.0.0.1",
      port: server.port,
      user: server.username,
    });
  });

  it("a short bash output leaves no artifact behind on the remote host", async () => {
    const result = await tackle([
      "tool",
      "bash",
      JSON.stringify({ command: "echo short" }),
      "--env",
      url(),
      ...trusted(),
      "--json",
    ]);
    expect(result.code).toBe(EXIT.ok);
    const artifact = artifactPathIn(result.stdout);
    // The test sshd runs on this machine: its files are ours to look at.
    expect(fs.existsSync(path.dirname(artifact))).toBe(false);
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(check()).toBe(true), { timeout: 30_000, interval: 20 });
}
