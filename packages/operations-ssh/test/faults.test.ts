import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOperationError, type OutputChunk } from "@tackle/operations";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createSshOperations,
  isSshConnectionError,
  type SshOperations,
  type SshOperationsOptions,
} from "../src/index.js";
import { eventually, killIfRunning, livePidsOfGroup } from "./support/processes.js";
import { descendantsOf, startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

const servers: TestSshServer[] = [];
const adapters: SshOperations[] = [];

afterEach(async () => {
  await Promise.allSettled(adapters.splice(0).map((ops) => ops.dispose()));
  await Promise.allSettled(servers.splice(0).map((server) => server.stop()));
});

async function serve(): Promise<TestSshServer> {
  const server = await startSshServer();
  servers.push(server);
  return server;
}

function adapter(server: TestSshServer, overrides: Partial<SshOperationsOptions> = {}): SshOperations {
  const ops = createSshOperations({
    ...server.connectOptions,
    ...overrides,
  });
  adapters.push(ops);
  return ops;
}

async function rejection(action: Promise<unknown>): Promise<unknown> {
  try {
    await action;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Resolves with the first stdout text a command prints. */
function firstOutput(): { onChunk: (chunk: OutputChunk) => void; seen: Promise<string> } {
  let resolve!: (text: string) => void;
  const seen = new Promise<string>((r) => {
    resolve = r;
  });
  return { onChunk: (chunk) => resolve(new TextDecoder().decode(chunk.bytes)), seen };
}

describe("host key verification", () => {
  it("refuses an unknown host key, and the error says how to trust it", async () => {
    const server = await serve();
    const empty = join(server.dir, "empty_known_hosts");
    await writeFile(empty, "");
    const error = await rejection(adapter(server, { hostKey: { knownHostsPath: empty } }).stat("/"));
    expect(isSshConnectionError(error, "host_key_unknown")).toBe(true);
    expect(isOperationError(error, "permission_denied")).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(server.hostFingerprint);
    expect(message).toContain(`ssh-keyscan -p ${server.port} 127.0.0.1 >> ${empty}`);
  });

  it("a key trusted after a refusal is accepted by the next call of the same adapter", async () => {
    const server = await serve();
    const file = join(server.dir, "later_known_hosts");
    await writeFile(file, "");
    const ops = adapter(server, { hostKey: { knownHostsPath: file } });
    expect(isSshConnectionError(await rejection(ops.stat("/")), "host_key_unknown")).toBe(true);
    await writeFile(file, `[127.0.0.1]:${server.port} ${server.hostKeyLine}\n`);
    expect((await ops.stat("/")).type).toBe("directory");
  });

  it("refuses a changed host key (another key on file for this host)", async () => {
    const server = await serve();
    const other = await serve();
    // The second server's key written down for the first server's address: an impostor setup.
    const wrong = join(server.dir, "wrong_known_hosts");
    await writeFile(wrong, `[127.0.0.1]:${server.port} ${other.hostKeyLine}\n`);
    const error = await rejection(adapter(server, { hostKey: { knownHostsPath: wrong } }).readdir("/"));
    expect(isSshConnectionError(error, "host_key_changed")).toBe(true);
    expect((error as Error).message).toContain(`ssh-keygen -R '[127.0.0.1]:${server.port}'`);
  });

  it("accepts a pinned fingerprint and refuses a wrong one", async () => {
    const server = await serve();
    const other = await serve();
    const pinned = adapter(server, { hostKey: { fingerprint: server.hostFingerprint } });
    expect((await pinned.stat("/")).type).toBe("directory");
    const wrong = await rejection(
      adapter(server, { hostKey: { fingerprint: other.hostFingerprint } }).stat("/"),
    );
    expect(isSshConnectionError(wrong, "host_key_changed")).toBe(true);
  });

  it("matches hashed known_hosts entries", async () => {
    const server = await serve();
    execFileSync("ssh-keygen", ["-H", "-f", server.knownHostsPath], { stdio: "ignore" });
    expect((await adapter(server).stat("/")).type).toBe("directory");
  });
});

describe("authentication", () => {
  it("a key the server does not accept is a clear auth error", async () => {
    const server = await serve();
    const error = await rejection(adapter(server, { privateKey: server.unauthorizedKey }).stat("/"));
    expect(isSshConnectionError(error, "auth_failed")).toBe(true);
    expect(isOperationError(error, "permission_denied")).toBe(true);
  });

  it("authenticates through an ssh-agent (socket path)", async () => {
    const server = await serve();
    const socket = join(server.dir, "agent.sock");
    // A private agent, in the foreground so it is ours to end by pid.
    const agent = spawn("ssh-agent", ["-D", "-a", socket], { stdio: "ignore" });
    try {
      await eventually(
        async () => existsSync(socket),
        (ready) => ready,
      );
      execFileSync("ssh-add", ["-q", server.privateKeyPath], {
        env: { ...process.env, SSH_AUTH_SOCK: socket },
      });
      const ops = adapter(server, { privateKey: undefined, agent: socket });
      expect((await ops.stat("/")).type).toBe("directory");
    } finally {
      agent.kill("SIGTERM");
    }
  });

  it("no credential at all is refused when the adapter is made", () => {
    let error: unknown;
    try {
      createSshOperations({ host: "127.0.0.1", username: "nobody", hostKey: { insecureAcceptAny: true } });
    } catch (caught) {
      error = caught;
    }
    expect(isOperationError(error, "invalid_argument")).toBe(true);
  });

  it("nothing listening is connect_refused with code connection_lost, naming host and port", async () => {
    const server = await serve();
    await server.stop();
    servers.splice(servers.indexOf(server), 1);
    const error = await rejection(adapter(server).stat("/"));
    expect(isSshConnectionError(error, "connect_refused")).toBe(true);
    expect(isOperationError(error, "connection_lost")).toBe(true);
    expect((error as Error).message).toContain(`127.0.0.1:${server.port}`);
    expect((error as Error).message).toContain("Check the host and port");
  });
});

describe("connection", () => {
  it("is opened lazily and shared by every call and channel", async () => {
    const server = await serve();
    // The start-up port probe leaves a short-lived sshd child: let it go first.
    expect(
      await eventually(
        () => descendantsOf(server.pid),
        (pids) => pids.length === 0,
      ),
    ).toEqual([]);
    const ops = adapter(server);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await descendantsOf(server.pid)).toEqual([]);
    const parents = await Promise.all(
      Array.from({ length: 12 }, () =>
        ops.exec('echo "$PPID"', { shell: "sh", cwd: "/", onChunk: () => {} }),
      ),
    );
    expect(parents.every((result) => result.status === "completed")).toBe(true);
    const outputs = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const seen = firstOutput();
      await ops.exec('echo "$PPID"', { shell: "sh", cwd: "/", onChunk: seen.onChunk });
      outputs.add((await seen.seen).trim());
    }
    // Every channel's shell is a child of the same per-connection sshd process.
    expect(outputs.size).toBe(1);
  });

  it("the server killed mid-command: exec resolves unknown, a read in flight rejects connection_lost, no hang", async () => {
    const server = await serve();
    const ops = adapter(server);
    const big = join(server.dir, "big.bin");
    await writeFile(big, Buffer.alloc(8 * 1024 * 1024, 7));
    const started = firstOutput();
    const running = ops.exec("echo started; sleep 30", { shell: "sh", cwd: "/", onChunk: started.onChunk });
    await started.seen;
    const reader = ops.openRead(big)[Symbol.asyncIterator]();
    await reader.next();
    await server.crash();
    const result = await running;
    expect(result.status).toBe("unknown");
    expect(result.cleanup.confirmed).toBe(false);
    expect(result.cleanup.pid).toBeGreaterThan(1);
    expect(result.cleanup.note).toContain("connection lost");
    // The adapter does not claim the end it could not see; on the host, the command's watchdog
    // saw the connection die and ends the group (connection-drop.test.ts counts every process).
    const pgid = result.cleanup.pid as number;
    await vi.waitFor(async () => expect(await livePidsOfGroup(pgid)).toEqual([]), { timeout: 15_000 });
    const inFlight = await rejection(
      (async () => {
        for (;;) if ((await reader.next()).done) return;
      })(),
    );
    expect(isOperationError(inFlight, "connection_lost")).toBe(true);
    // The next call tries to reconnect: nothing listens any more, so it fails typed, promptly.
    expect(isOperationError(await rejection(ops.stat("/")), "connection_lost")).toBe(true);
  });

  it("a frozen server (no RST, no replies) is detected by keepalive: the call in flight fails, no hang", async () => {
    const server = await serve();
    const ops = adapter(server, { keepaliveIntervalMs: 200, keepaliveCountMax: 2 });
    const started = firstOutput();
    const running = ops.exec("echo started; sleep 30", { shell: "sh", cwd: "/", onChunk: started.onChunk });
    await started.seen;
    // Freeze only the per-connection sshd processes: the TCP connection stays open, silent.
    const frozen: number[] = [];
    for (const pid of await descendantsOf(server.pid)) {
      const exe = await readlink(`/proc/${pid}/exe`).catch(() => "");
      if (exe === "/usr/sbin/sshd") {
        process.kill(pid, "SIGSTOP");
        frozen.push(pid);
      }
    }
    try {
      expect(frozen.length).toBeGreaterThan(0);
      const reading = rejection(ops.readFile("/etc/hostname"));
      const result = await running;
      expect(result.status).toBe("unknown");
      expect(isOperationError(await reading, "connection_lost")).toBe(true);
    } finally {
      // Listed before anything dies: the command's shell leaves this tree once its sshd is gone.
      const tree = await descendantsOf(server.pid);
      for (const pid of tree) killIfRunning(pid);
    }
  });

  it("reconnects on the next call after the connection dropped", async () => {
    const server = await serve();
    const ops = adapter(server);
    expect((await ops.stat("/")).type).toBe("directory");
    // Kill only the per-connection sshd processes; the listener stays.
    for (const pid of await descendantsOf(server.pid)) killIfRunning(pid);
    await eventually(
      () =>
        ops.stat("/").then(
          () => "ok",
          (error: unknown) => (isOperationError(error, "connection_lost") ? "lost" : "other"),
        ),
      (state) => state === "ok",
    );
    expect((await ops.stat("/")).type).toBe("directory");
    const result = await ops.exec("exit 0", { shell: "sh", cwd: "/" });
    expect(result.status).toBe("completed");
  });
});

describe("stopping commands", () => {
  it("a command ignoring SIGTERM gets SIGKILL after the grace, confirmed and really gone", async () => {
    const server = await serve();
    const ops = adapter(server);
    const result = await ops.exec("trap '' TERM; sleep 60 & sleep 60; wait", {
      shell: "bash",
      cwd: "/",
      timeoutMs: 300,
      killGraceMs: 300,
    });
    expect(result.status).toBe("timed-out");
    expect(result.cleanup).toMatchObject({ termSent: true, killSent: true, confirmed: true });
    expect(await livePidsOfGroup(result.cleanup.pid as number)).toEqual([]);
  });

  it("dispose() ends running commands and closes the connection: nothing left remotely", async () => {
    const server = await serve();
    const ops = adapter(server);
    const started = firstOutput();
    const running = ops.exec("echo go; sleep 60", { shell: "sh", cwd: "/", onChunk: started.onChunk });
    await started.seen;
    await ops.dispose();
    const result = await running;
    expect(result.status).toBe("cancelled");
    expect(result.cleanup.confirmed).toBe(true);
    expect(await livePidsOfGroup(result.cleanup.pid as number)).toEqual([]);
    expect(
      await eventually(
        () => descendantsOf(server.pid),
        (pids) => pids.length === 0,
      ),
    ).toEqual([]);
    expect(isOperationError(await rejection(ops.stat("/")), "connection_lost")).toBe(true);
  });

  it("a login shell stuck before the wrapper: a timeout resolves unknown after a bounded wait", async () => {
    // bash sources $BASH_ENV before it runs the command string: a profile that hangs.
    const profileDir = await mkdtemp(join(tmpdir(), "tackle-profile-"));
    try {
      const profile = join(profileDir, "slow-profile.sh");
      await writeFile(profile, "sleep 20\n");
      const server = await startSshServer({ env: { BASH_ENV: profile } });
      servers.push(server);
      // No ripgrep probe: it would go through the same slow profile.
      const ops = adapter(server, { killGraceMs: 200, ripgrep: false });
      const result = await ops.exec("true", { shell: "sh", cwd: "/", timeoutMs: 200 });
      expect(result.status).toBe("unknown");
      expect(result.cleanup).toMatchObject({ termSent: false, confirmed: false });
      expect(result.cleanup.note).toContain("never started");
      // The adapter said it could not stop it: the test ends the stuck shell itself, by pid,
      // while it is still under this server's sshd.
      for (const pid of await descendantsOf(server.pid)) killIfRunning(pid);
    } finally {
      await rm(profileDir, { recursive: true, force: true });
    }
  });

  it("an abort while waiting for a channel slot rejects with aborted", async () => {
    const server = await serve();
    const ops = adapter(server, { maxChannels: 1 });
    const started = firstOutput();
    const holder = ops.exec("echo hold; sleep 60", {
      shell: "sh",
      cwd: "/",
      onChunk: started.onChunk,
      timeoutMs: 5000,
    });
    await started.seen;
    const controller = new AbortController();
    const queued = ops.exec("true", { shell: "sh", cwd: "/", signal: controller.signal });
    controller.abort();
    expect(isOperationError(await rejection(queued), "aborted")).toBe(true);
    await ops.dispose();
    expect((await holder).status).toBe("cancelled");
  });
});
