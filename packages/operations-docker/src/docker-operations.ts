import { randomBytes } from "node:crypto";
import {
  type CallOptions,
  type ExecOptions,
  type ExecResult,
  type Operations,
  type SearchOperations,
  tempFileDomain,
} from "@tackle/operations";
import { ContainerClient } from "./container-client.js";
import { ContainerFiles } from "./container-files.js";
import { createContainerSearch } from "./container-search.js";
import type { DockerConnection } from "./docker-connection.js";
import { connectEngine } from "./engine-connection.js";
import { DockerOperationError } from "./engine-error.js";
import { bundledRipgrepFor, placedRipgrepPath, placeRipgrep } from "./ripgrep-placement.js";
import { runCommand } from "./run-command.js";
import { shellText } from "./shell-text.js";

/**
 * Options of {@link createDockerOperations}.
 *
 * @example
 * ```ts
 * const ops = await createDockerOperations({ container: "dev", user: "1000", workdir: "/work" });
 * ```
 */
export interface DockerOperationsOptions {
  /** Name or id of a running container. */
  container: string;
  /** How to reach the engine (default: `DOCKER_HOST`, else `/var/run/docker.sock`). */
  docker?: DockerConnection;
  /** User for every exec (`name`, `uid` or `uid:gid`; default: the container's user). */
  user?: string;
  /** Working directory of internal execs (default: the container's). Commands use `cwd`. */
  workdir?: string;
  /** Writable directory in the container for per-command control files (default `/tmp`). */
  tempDir?: string;
  /**
   * Where `search` gets ripgrep when the container has no `rg` on its PATH: a host path to a
   * static Linux rg binary for the container's architecture, copied into the container through
   * the archive endpoint. Default: the binary of `@vscode/ripgrep` when the host is Linux with
   * the container's architecture. `false`: never copy; `search` is then left undefined and the
   * tools use their portable search.
   */
  ripgrepPath?: string | false;
  /**
   * Run file calls in up to four long-lived `sh` processes in the container (default true):
   * one request on an open exec stream instead of a new exec per call, several times faster.
   * `false`: one exec per call (nothing stays running between calls).
   */
  residentShells?: boolean;
}

/** What one probe exec learns about the container at creation. */
interface ContainerFacts {
  home: string | undefined;
  machine: string;
  /** `tempFileDomain` of the container's process table (random when it has no /proc). */
  writerDomain: string;
  rg: string | undefined;
}

/**
 * Reports facts line by line: HOME, `uname -m`, the boot id and pid namespace (the writer domain
 * of temp files; empty without /proc), then the path of a usable rg: on the PATH, or one placed
 * earlier at `$1` (or nothing).
 */
const PROBE_SCRIPT = shellText`
printf '%s\n' "$HOME"
uname -m
cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo
readlink /proc/self/ns/pid 2>/dev/null || echo
if command -v rg >/dev/null 2>&1; then command -v rg; elif [ -x "$1" ]; then printf '%s\n' "$1"; fi
`;

/**
 * `Operations` inside an existing running container, over the Docker Engine API (dockerode): no
 * `docker` CLI. Files go through short busybox-level sh scripts run by exec as `user`, commands
 * run in their own process group, `search` runs ripgrep inside the container.
 *
 * Rejects with a {@link DockerOperationError} when the engine is unreachable or refuses the
 * caller, the container does not exist or is not running, or the user is unknown to it.
 *
 * @example
 * ```ts
 * const ops = await createDockerOperations({ container: "dev" });
 * const result = await ops.exec("ls", { shell: "sh", cwd: "/" });
 * ```
 */
export async function createDockerOperations(options: DockerOperationsOptions): Promise<Operations> {
  const { docker, endpoint } = connectEngine(options.docker);
  const tempDir = options.tempDir ?? "/tmp";
  const client = new ContainerClient(docker, options.container, endpoint, options.user, options.workdir);
  const facts = await probe(client, tempDir);
  const files = new ContainerFiles(client, options.residentShells !== false, facts.writerDomain);

  let rg = facts.rg;
  if (rg === undefined && options.ripgrepPath !== false) {
    const hostRg = options.ripgrepPath ?? (await bundledRipgrepFor(facts.machine));
    // A container that refuses the copy (read-only root, no tempDir) still works: the tools
    // then use their portable search.
    if (hostRg) rg = await placeRipgrep(client, tempDir, hostRg).catch(() => undefined);
  }
  const search: SearchOperations | undefined = rg ? createContainerSearch(client, files, rg) : undefined;
  const context = { client, tempDir };
  // dispose() cancels commands still running (TERM, then KILL, through their process groups):
  // a disposed adapter leaves nothing of its commands running in the container.
  const running = new Map<Promise<ExecResult>, AbortController>();
  const exec = (command: string, execOptions: ExecOptions): Promise<ExecResult> => {
    const controller = new AbortController();
    const caller = execOptions.signal;
    const forward = () => controller.abort(caller?.reason);
    if (caller?.aborted) forward();
    else caller?.addEventListener("abort", forward, { once: true });
    const call = runCommand(context, command, { ...execOptions, signal: controller.signal });
    running.set(call, controller);
    const settle = () => {
      running.delete(call);
      caller?.removeEventListener("abort", forward);
    };
    void call.then(settle, settle);
    return call;
  };

  const operations: Operations = {
    id: `docker://${options.container}`,
    platform: "posix",
    ...(facts.home ? { homeDir: facts.home } : {}),
    stat: (path, callOptions) => files.stat(path, callOptions),
    lstat: (path, callOptions) => files.lstat(path, callOptions),
    realpath: (path, callOptions) => files.realpath(path, callOptions),
    readlink: (path, callOptions) => files.readlink(path, callOptions),
    readFile: (path, callOptions) => files.readFile(path, callOptions),
    openRead: (path, callOptions) => files.openRead(path, callOptions),
    writeFile: (path, data, callOptions) => files.writeFile(path, data, callOptions),
    mkdir: (path, callOptions) => files.mkdir(path, callOptions),
    readdir: (path, callOptions) => files.readdir(path, callOptions),
    remove: (path, callOptions) => files.remove(path, callOptions),
    symlink: (target, path, callOptions?: CallOptions) => files.symlink(target, path, callOptions),
    rename: (from, to, callOptions?: CallOptions) => files.rename(from, to, callOptions),
    chmod: (path, mode, callOptions?: CallOptions) => files.chmod(path, mode, callOptions),
    exec,
    ...(search ? { search } : {}),
    // Running commands are cancelled first; the resident shells exit when their stdin closes.
    dispose: async () => {
      for (const controller of running.values()) controller.abort(new Error("Operations disposed"));
      await Promise.allSettled([...running.keys()]);
      files.close();
    },
  };
  return operations;
}

async function probe(client: ContainerClient, tempDir: string): Promise<ContainerFacts> {
  let info: Awaited<ReturnType<typeof client.container.inspect>>;
  try {
    info = await client.container.inspect();
  } catch (error) {
    throw client.fail(error, "connect");
  }
  if (!info.State.Running || info.State.Paused) {
    const name = client.containerName;
    throw new DockerOperationError(
      "container_not_running",
      info.State.Paused
        ? `Container ${name} is paused. Unpause it (docker unpause ${name}), then retry.`
        : `Container ${name} is ${info.State.Status}, not running. Start it (docker start ${name}), then retry.`,
      { operation: "connect", endpoint: client.endpoint, container: name },
    );
  }
  const placed = placedRipgrepPath(tempDir);
  const result = await client.run(["sh", "-c", PROBE_SCRIPT, "sh", placed], { operation: "connect" });
  if (result.exitCode !== 0) {
    const detail = result.stderr.toString("utf8").trim() || result.stdout.toString("utf8").trim();
    if (/no matching entries in passwd|unable to find user/i.test(detail)) {
      throw new DockerOperationError("user_not_found", `Container ${client.containerName}: ${detail}`, {
        operation: "connect",
      });
    }
    throw new DockerOperationError(
      "engine_error",
      `Container ${client.containerName} cannot run sh (exit ${result.exitCode}): ${detail}`,
      { operation: "connect" },
    );
  }
  const [home = "", machine = "", bootId = "", namespace = "", rg = ""] = result.stdout
    .toString("utf8")
    .split("\n");
  // Without /proc no pid can be checked: a domain no other writer has leaves sweeping to age.
  const writerDomain =
    bootId && namespace ? tempFileDomain(bootId, namespace) : randomBytes(6).toString("hex");
  return { home: home || undefined, machine, writerDomain, rg: rg || undefined };
}
