import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";
import { type EngineCertificates, generateEngineCertificates } from "./engine-certificates.js";

/**
 * Network flags every private engine gets: without them dockerd creates a bridge and rewrites
 * the host firewall. Containers then only work with `NetworkMode: "none"`.
 */
export const ENGINE_NETWORK_FLAGS = [
  "--bridge=none",
  "--iptables=false",
  "--ip6tables=false",
  "--ip-forward=false",
  "--ip-masq=false",
];

/** A dockerd this process started, with its own data root, exec root and socket. */
export interface PrivateEngine {
  /** Unix socket of the engine. */
  readonly socketPath: string;
  /** Temp directory holding data root, exec root, socket, pid file and log. */
  readonly dir: string;
  /** Pid of dockerd. */
  readonly pid: number;
  /** Milliseconds from spawn to the first answered ping. */
  readonly startupMs: number;
  /**
   * With the `tls` option: the engine also listens on `host` (`tcp://127.0.0.1:<port>`) with TLS
   * and client verification; `certificates.clientCertDir` is a client's `DOCKER_CERT_PATH`.
   */
  readonly tls: { host: string; certificates: EngineCertificates } | undefined;
  /** Removes every container, stops dockerd by its pid, unmounts leftovers, removes `dir`. */
  stop(): Promise<void>;
}

/** Options of {@link startPrivateEngine}. */
export interface PrivateEngineOptions {
  /** dockerd binary (default `dockerd` on the PATH). */
  dockerd?: string;
  /** Storage driver (default: dockerd's choice, overlay2 where the filesystem allows). */
  storageDriver?: string;
  /** Longest wait for the first ping (default 60 s). */
  startTimeoutMs?: number;
  /**
   * Also listen on a free TCP port of 127.0.0.1 with TLS and `--tlsverify` (certificates made
   * with openssl into the engine's directory), as an engine reached by `DOCKER_HOST=tcp://`.
   */
  tls?: boolean;
}

/** A TCP port on 127.0.0.1 that nothing listens on (asked from the kernel, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 0;
}

/**
 * Starts a private dockerd for tests and benchmarks (root needed). Never pulls, never touches
 * the host network. Throws with the engine log when it does not come up: a test run must fail
 * loudly rather than skip.
 */
export async function startPrivateEngine(options: PrivateEngineOptions = {}): Promise<PrivateEngine> {
  const dir = await mkdtemp(join(tmpdir(), "tackle-dockerd-"));
  const socketPath = join(dir, "docker.sock");
  const logPath = join(dir, "dockerd.log");
  let tls: PrivateEngine["tls"];
  const tlsArgs: string[] = [];
  if (options.tls) {
    const certificates = await generateEngineCertificates(join(dir, "tls")).catch(async (error: unknown) => {
      await rm(dir, { recursive: true, force: true });
      throw error;
    });
    const host = `tcp://127.0.0.1:${await freePort()}`;
    tls = { host, certificates };
    tlsArgs.push(
      "-H",
      host,
      "--tlsverify",
      "--tlscacert",
      certificates.caPath,
      "--tlscert",
      certificates.serverCertPath,
      "--tlskey",
      certificates.serverKeyPath,
    );
  }
  const args = [
    "--data-root",
    join(dir, "data"),
    "--exec-root",
    join(dir, "exec"),
    "--pidfile",
    join(dir, "dockerd.pid"),
    "-H",
    `unix://${socketPath}`,
    ...tlsArgs,
    ...ENGINE_NETWORK_FLAGS,
    ...(options.storageDriver ? ["--storage-driver", options.storageDriver] : []),
  ];
  const started = Date.now();
  const log = openSync(logPath, "a");
  let child: ChildProcess;
  try {
    child = spawn(options.dockerd ?? "dockerd", args, { stdio: ["ignore", log, log], detached: true });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let exited: string | undefined;
  child.once("exit", (code, signal) => {
    exited = `dockerd exited (code ${code}, signal ${signal})`;
  });
  child.once("error", (error) => {
    exited = `dockerd could not start: ${error.message}`;
  });
  const pid = child.pid ?? 0;
  const watcher = watchParent(pid, dir);
  const docker = new Docker({ socketPath });
  const stop = async () => {
    await stopEngine(docker, child, dir);
    stopWatcher(watcher);
  };
  const deadline = started + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited !== undefined || Date.now() > deadline) {
      await stop().catch(() => undefined);
      const tail = readLogTail(logPath);
      throw new Error(`Private Docker engine did not start: ${exited ?? "no answer on the socket"}\n${tail}`);
    }
    try {
      await docker.ping();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { socketPath, dir, pid, startupMs: Date.now() - started, tls, stop };
}

async function stopEngine(docker: Docker, child: ChildProcess, dir: string): Promise<void> {
  try {
    for (const info of await docker.listContainers({ all: true })) {
      await docker.getContainer(info.Id).remove({ force: true, v: true });
    }
  } catch {
    // The engine may already be gone; its containers then died with it.
  }
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    process.kill(child.pid, "SIGTERM");
    const timer = setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        process.kill(child.pid, "SIGKILL");
      }
    }, 20_000);
    await gone;
    clearTimeout(timer);
  }
  unmountBelow(dir);
  await rm(dir, { recursive: true, force: true });
}

/**
 * If this process dies without calling `stop()` (a killed test run), a detached sh ends the
 * engine anyway: it polls this process's pid, then sends TERM to dockerd (which stops its
 * containers and containerd), unmounts what is left below `dir` and removes it.
 */
const WATCHER_SCRIPT = [
  'while kill -0 "$1" 2>/dev/null; do sleep 1; done',
  'kill -TERM "$2" 2>/dev/null',
  'i=0; while kill -0 "$2" 2>/dev/null && [ "$i" -lt 150 ]; do sleep 0.2; i=$((i + 1)); done',
  'kill -KILL "$2" 2>/dev/null',
  'grep " $3/" /proc/self/mountinfo | cut -d\' \' -f5 | sort -r | while read -r m; do umount -l "$m"; done',
  'rm -rf "$3"',
].join("\n");

function watchParent(enginePid: number, dir: string): ChildProcess | undefined {
  if (enginePid <= 0) return undefined;
  const watcher = spawn("sh", ["-c", WATCHER_SCRIPT, "sh", String(process.pid), String(enginePid), dir], {
    stdio: "ignore",
    detached: true,
  });
  watcher.unref();
  return watcher;
}

function stopWatcher(watcher: ChildProcess | undefined): void {
  if (watcher?.pid !== undefined && watcher.exitCode === null && watcher.signalCode === null) {
    try {
      process.kill(-watcher.pid, "SIGTERM"); // Its group: the sh and its `sleep`.
    } catch {
      // Already gone.
    }
  }
}

/** Lazily unmounts anything still mounted below `dir` (deepest first). */
function unmountBelow(dir: string): void {
  let table: string;
  try {
    table = readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return;
  }
  const points = table
    .split("\n")
    .map((line) => (line.split(" ")[4] ?? "").replace(/\\040/g, " "))
    .filter((point) => point.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const point of points) spawnSync("umount", ["-l", point], { stdio: "ignore" });
}

function readLogTail(path: string): string {
  try {
    return readFileSync(path, "utf8").split("\n").slice(-30).join("\n");
  } catch {
    return "(no dockerd log)";
  }
}

/** Reads the engine log (for failure messages). */
export async function readEngineLog(engine: PrivateEngine): Promise<string> {
  return readFile(join(engine.dir, "dockerd.log"), "utf8");
}
