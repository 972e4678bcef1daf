// Starts a real OpenSSH server (Debian's openssh-server) for tests and the benchmark:
// 127.0.0.1, a free port, host and user keys generated into a temp dir, a daemon owned by the
// caller and stopped by its pid file. Plain ESM so bench/run.mjs can use it without a build.
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const SSHD = "/usr/sbin/sshd";
const SFTP_SERVER = "/usr/lib/openssh/sftp-server";
const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** A free TCP port on 127.0.0.1 (asked from the kernel, then released). */
async function freePort() {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function keygen(path, comment) {
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path]);
  return (await readFile(`${path}.pub`, "utf8")).trim();
}

/** `SHA256:<base64 without padding>` of a public key line, as `ssh-keygen -lf` prints it. */
export function fingerprintOf(publicKeyLine) {
  const blob = Buffer.from(publicKeyLine.split(/\s+/)[1] ?? "", "base64");
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

async function waitForPort(port, deadline) {
  while (Date.now() < deadline) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`sshd did not accept connections on 127.0.0.1:${port}`);
}

/** Pids of every process below `pid`, deepest first (walks /proc by parent pid). */
export async function descendantsOf(pid) {
  const parents = new Map();
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(name), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  const found = [];
  const visit = (parent) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        visit(child);
        found.push(child);
      }
    }
  };
  visit(pid);
  return found;
}

function killQuietly(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** Daemons started by this process: a last-resort SIGKILL on exit if a test forgot one. */
const running = new Set();

/**
 * If the test process dies without calling `stop()` (a run killed from outside, e.g. turbo
 * ending a sibling task's failure), a detached sh still ends sshd by its pid and removes its
 * directory: it polls this process's pid, then sends TERM, then KILL.
 */
const WATCHER_SCRIPT = [
  'while kill -0 "$1" 2>/dev/null; do sleep 1; done',
  'kill -TERM "$2" 2>/dev/null; sleep 1; kill -KILL "$2" 2>/dev/null',
  'rm -rf "$3"',
].join("\n");

function watchParent(sshdPid, dir) {
  const watcher = spawn("sh", ["-c", WATCHER_SCRIPT, "sh", String(process.pid), String(sshdPid), dir], {
    stdio: "ignore",
    detached: true,
  });
  watcher.unref();
  return watcher;
}

function stopWatcher(watcher) {
  if (watcher.pid !== undefined && watcher.exitCode === null && watcher.signalCode === null) {
    try {
      process.kill(-watcher.pid, "SIGTERM"); // its group: the sh and its sleep
    } catch {
      // already gone
    }
  }
}
process.once("exit", () => {
  for (const pid of running) killQuietly(pid, "SIGKILL");
});

/** True while `pid` runs; a zombie (this machine's init may never reap it) counts as gone. */
export async function isAlive(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  return state !== "" && state !== "Z" && state !== "X";
}

/**
 * The daemon's pid from its pid file, only once the file holds a whole number and that process
 * really is our sshd (its command line names our config): a wrong pid here would make stop()
 * signal somebody else's process.
 */
async function readPid(pidFile, configPath, deadline) {
  while (Date.now() < deadline) {
    const text = await readFile(pidFile, "utf8").catch(() => "");
    if (/^\d+\n?$/.test(text)) {
      const pid = Number(text.trim());
      const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
      if (pid > 1 && cmdline.includes(configPath)) return pid;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`sshd wrote no usable pid file at ${pidFile}`);
}

/**
 * Starts sshd. Throws (never skips) when it cannot start, with sshd's own log in the message.
 * @param {{ extraConfig?: string[], env?: Record<string, string>, tools?: string[], sftpLog?: boolean }} [options]
 */
export async function startSshServer(options = {}) {
  const dir = await mkdtemp(join(tmpdir(), "tackle-sshd-"));
  try {
    await mkdir("/run/sshd", { recursive: true });
    const hostKeyLine = await keygen(join(dir, "host_ed25519"), "tackle-test-host");
    const userKeyLine = await keygen(join(dir, "user_ed25519"), "tackle-test-user");
    await keygen(join(dir, "other_ed25519"), "tackle-test-unauthorized");
    await writeFile(join(dir, "authorized_keys"), `${userKeyLine}\n`, { mode: 0o600 });
    const env = { SHLVL: "1", ...options.env };
    if (options.tools?.length) {
      // Executables only these sessions see: a bin dir first on PATH (sshd's SetEnv wins over its default).
      await mkdir(join(dir, "bin"));
      for (const tool of options.tools) await copyFile(tool, join(dir, "bin", basename(tool)));
      env.PATH = `${join(dir, "bin")}:${SYSTEM_PATH}`;
    }
    const port = await freePort();
    await writeFile(join(dir, "known_hosts"), `[127.0.0.1]:${port} ${hostKeyLine}\n`);
    const pidFile = join(dir, "sshd.pid");
    const config = [
      "ListenAddress 127.0.0.1",
      `Port ${port}`,
      `HostKey ${join(dir, "host_ed25519")}`,
      `PidFile ${pidFile}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "UsePAM no",
      "StrictModes no",
      "PermitRootLogin prohibit-password",
      // With sftpLog, OpenSSH's sftp-server logs every file it closes with the bytes it read
      // or wrote, to sftp.log (the subsystem command runs through the login shell).
      options.sftpLog
        ? `Subsystem sftp ${SFTP_SERVER} -e -l INFO 2>>${join(dir, "sftp.log")}`
        : "Subsystem sftp internal-sftp",
      // Root's ~/.bashrc can stall for 60 s on this image; bash skips it when SHLVL is set.
      // sshd honours only the first SetEnv line, so every variable goes on this one.
      `SetEnv ${Object.entries(env)
        .map(([name, value]) => `${name}=${value}`)
        .join(" ")}`,
      "LogLevel ERROR",
      ...(options.extraConfig ?? []),
    ];
    const configPath = join(dir, "sshd_config");
    const logPath = join(dir, "sshd.log");
    await writeFile(configPath, `${config.join("\n")}\n`);
    if (!existsSync(SSHD))
      throw new Error(`${SSHD} is missing: install openssh-server (scripts/ensure-system.sh)`);
    await run(SSHD, ["-t", "-f", configPath]);
    await run(SSHD, ["-f", configPath, "-E", logPath]);
    const deadline = Date.now() + 10_000;
    const pid = await readPid(pidFile, configPath, deadline);
    running.add(pid);
    const watcher = watchParent(pid, dir);
    await waitForPort(port, deadline);
    const privateKey = await readFile(join(dir, "user_ed25519"), "utf8");
    const knownHostsPath = join(dir, "known_hosts");
    return {
      host: "127.0.0.1",
      port,
      username: userInfo().username,
      dir,
      pid,
      privateKeyPath: join(dir, "user_ed25519"),
      privateKey,
      unauthorizedKey: await readFile(join(dir, "other_ed25519"), "utf8"),
      knownHostsPath,
      // What `createSshOperations` needs to log in and trust this server; a new object per
      // server, frozen so one test's overrides (spread over it) cannot leak into another's.
      connectOptions: Object.freeze({
        host: "127.0.0.1",
        port,
        username: userInfo().username,
        privateKey,
        hostKey: Object.freeze({ knownHostsPath }),
      }),
      hostKeyLine,
      hostFingerprint: fingerprintOf(hostKeyLine),
      logPath,
      /**
       * Simulates the server dying: SIGKILLs sshd and its per-connection sshd processes (picked
       * by pid, checked by their executable), but not the commands they started, which are
       * orphaned like on a host whose sshd crashed (the adapter's watchdogs then end them).
       */
      async crash() {
        const tree = await descendantsOf(pid);
        const sshdPids = [];
        for (const child of tree) {
          const exe = await readlink(`/proc/${child}/exe`).catch(() => "");
          if (exe === SSHD) sshdPids.push(child);
        }
        killQuietly(pid, "SIGKILL");
        running.delete(pid);
        for (const child of sshdPids) killQuietly(child, "SIGKILL");
      },
      /** Stops sshd by its pid (and any session left under it), then removes the temp dir. */
      async stop() {
        const tree = await descendantsOf(pid);
        killQuietly(pid, "SIGTERM");
        for (const child of tree) killQuietly(child, "SIGKILL");
        const until = Date.now() + 2000;
        while ((await isAlive(pid)) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        if (await isAlive(pid)) killQuietly(pid, "SIGKILL");
        running.delete(pid);
        stopWatcher(watcher);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    let log = "";
    try {
      log = await readFile(join(dir, "sshd.log"), "utf8");
    } catch {}
    await rm(dir, { recursive: true, force: true });
    throw new Error(
      `could not start sshd: ${error instanceof Error ? error.message : String(error)}\n${log}`,
      {
        cause: error,
      },
    );
  }
}
