import { randomBytes } from "node:crypto";
import {
  type ExecOptions,
  type ExecResult,
  OperationError,
  type Operations,
  type SandboxOptions,
  type SandboxReport,
  type SearchOperations,
  tempFileDomain,
} from "@tackle/operations";
import {
  ConnectOnce,
  checkAdapterOptions,
  effectiveSandbox,
  filesAfterConnect,
  type OptionSpec,
  RunningCommands,
} from "@tackle/operations/adapter";
import { shellText } from "@tackle/operations/container-scripts";
import { ContainerClient } from "./container-client.js";
import { createContainerFiles } from "./container-files.js";
import {
  type ContainerSandboxFacts,
  containerSandboxFacts,
  containerSandboxReport,
} from "./container-sandbox.js";
import { createContainerSearch } from "./container-search.js";
import type { DockerConnection } from "./docker-connection.js";
import { connectEngine } from "./engine-connection.js";
import { DockerOperationError } from "./engine-error.js";
import { bundledRipgrepFor, placedRipgrepPath, placeRipgrep } from "./ripgrep-placement.js";
import { runCommand } from "./run-command.js";

/**
 * Options of {@link createDockerOperations}.
 *
 * @example
 * ```ts
 * const ops = createDockerOperations({ container: "dev", user: "1000", workdir: "/work" });
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
  /**
   * Sandbox of every command that does not say otherwise (`ExecOptions.sandbox`). In a container
   * the container is the sandbox: the adapter adds nothing inside it, it checks that the
   * container gives what is asked (network mode `none` for network `"off"`, a read-only root,
   * the `writable` paths on writable mounts) and reports the call as sandboxed by `container`;
   * otherwise the call is refused with `not_supported` naming what is missing. See
   * docs/sandbox.md.
   */
  sandbox?: SandboxOptions;
}

/** What each option of {@link DockerOperationsOptions} must be. */
export const DOCKER_OPTION_SPEC = {
  container: "non-empty-string",
  docker: "object",
  user: "non-empty-string",
  workdir: "non-empty-string",
  tempDir: "non-empty-string",
  ripgrepPath: {
    expected: "a path or false",
    test: (value) => value === false || (typeof value === "string" && value !== ""),
  },
  residentShells: "boolean",
  sandbox: {
    expected: "an options object",
    test: (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  },
} as const satisfies OptionSpec;

/** An `Operations` inside a container, plus connection control (the shape of every remote adapter). */
export interface DockerOperations extends Operations {
  /** The container as given in the options. */
  readonly container: string;
  /**
   * Checks the container now (otherwise the first call does): it exists and runs, the user is
   * known, `sh` works; learns the home directory and places or finds ripgrep. Call it before
   * handing the adapter to tools so `homeDir` and `search` are decided. Rejects with a
   * {@link DockerOperationError}; a failed check is tried again by the next call.
   */
  connect(options?: { signal?: AbortSignal | undefined }): Promise<void>;
  /** Cancels running commands and closes the resident shells. Idempotent. */
  dispose(): Promise<void>;
}

/** What one probe exec learns about the container when it connects. */
interface ContainerFacts {
  home: string | undefined;
  /** What the container's configuration enforces, for sandboxed calls. */
  sandbox: ContainerSandboxFacts;
  /** `tempFileDomain` of the container's process table (random when it has no /proc). */
  writerDomain: string;
  search: SearchOperations | undefined;
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
 * Like every Tackle adapter it is created synchronously and connects on first use (or on
 * `connect()`): options are checked here (a bad `container` or `docker` throws at once), the
 * engine and the container when it connects. Connection failures are
 * {@link DockerOperationError}s: the engine is unreachable or refuses the caller, the container
 * does not exist or is not running, or the user is unknown to it.
 *
 * @example
 * ```ts
 * const ops = createDockerOperations({ container: "dev" });
 * await ops.connect(); // fail early, and decide `search` before the tools run
 * const result = await ops.exec("ls", { shell: "sh", cwd: "/" });
 * await ops.dispose();
 * ```
 */
export function createDockerOperations(options: DockerOperationsOptions): DockerOperations {
  if (typeof options?.container !== "string" || options.container.trim() === "") {
    throw new OperationError(
      "invalid_argument",
      `createDockerOperations: container must be the name or id of a running container, got ${JSON.stringify(options?.container)}`,
      { operation: "createDockerOperations" },
    );
  }
  checkAdapterOptions("createDockerOperations", options, DOCKER_OPTION_SPEC);
  const { docker, endpoint } = connectEngine(options.docker);
  const tempDir = options.tempDir ?? "/tmp";
  const client = new ContainerClient(docker, options.container, endpoint, options.user, options.workdir);
  // File calls run only once connected (filesAfterConnect below), so the domain is known by then.
  const files = createContainerFiles(client, options.residentShells !== false, () => {
    const known = connection.known;
    if (!known) throw new Error("the container's writer domain is read before connecting");
    return known.writerDomain;
  });

  const learn = async (): Promise<ContainerFacts> => {
    const facts = await probe(client, tempDir);
    let rg = facts.rg;
    if (rg === undefined && options.ripgrepPath !== false) {
      const hostRg = options.ripgrepPath ?? (await bundledRipgrepFor(facts.machine));
      // A container that refuses the copy (read-only root, no tempDir) still works: the tools
      // then use their portable search.
      if (hostRg) rg = await placeRipgrep(client, tempDir, hostRg).catch(() => undefined);
    }
    return {
      home: facts.home,
      sandbox: facts.sandbox,
      writerDomain: facts.writerDomain,
      search: rg ? createContainerSearch(client, files, rg) : undefined,
    };
  };
  // Connects once; a failed attempt is forgotten, so the next call tries again (the container
  // may have been started meanwhile).
  const connection = new ConnectOnce<ContainerFacts>(() => learn());

  const context = { client, tempDir };
  // dispose() cancels commands still running (TERM, then KILL, through their process groups):
  // a disposed adapter leaves nothing of its commands running in the container.
  const running = new RunningCommands<ExecResult>();
  const exec = async (command: string, execOptions: ExecOptions): Promise<ExecResult> => {
    const sandbox = effectiveSandbox(execOptions.sandbox, options.sandbox);
    // Checked against the container before anything runs: refused (not_supported) when it does
    // not give what the sandbox asks, never run without it.
    const facts = connection.known?.sandbox;
    const report = sandbox && facts ? containerSandboxReport(sandbox, options.container, facts) : undefined;
    if (sandbox && !report)
      throw new OperationError(
        "not_supported",
        "exec: sandbox unavailable: the container was not inspected",
        {
          operation: "exec",
        },
      );
    const { sandbox: _sandbox, ...plain } = execOptions;
    const run = report ? reportSandbox(plain, report) : plain;
    return running
      .run(execOptions.signal, (signal) => runCommand(context, command, { ...run, signal }))
      .then((result) => (report ? { ...result, sandbox: report } : result));
  };
  let disposed: Promise<void> | undefined;

  return {
    id: `docker://${options.container}`,
    platform: "posix",
    container: options.container,
    environment: {
      kind: "docker",
      container: options.container,
      engine: endpoint.url,
      ...(options.user !== undefined ? { user: options.user } : {}),
    },
    get homeDir() {
      return connection.known?.home;
    },
    get search() {
      return connection.known?.search;
    },
    ...filesAfterConnect(files, connection),
    exec: connection.after(exec),
    async connect(connectOptions) {
      await connection.ready(connectOptions?.signal);
    },
    // Running commands are cancelled first; the resident shells exit when their stdin closes.
    dispose() {
      disposed ??= (async () => {
        await running.cancelAll();
        files.close();
      })();
      return disposed;
    },
  };
}

async function probe(
  client: ContainerClient,
  tempDir: string,
): Promise<{
  home: string | undefined;
  machine: string;
  writerDomain: string;
  rg: string | undefined;
  sandbox: ContainerSandboxFacts;
}> {
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
  return {
    home: home || undefined,
    machine,
    writerDomain,
    rg: rg || undefined,
    sandbox: containerSandboxFacts(info),
  };
}

/** `options` with the sandbox's report added to what `onSpawn` gets. */
function reportSandbox(options: ExecOptions, report: SandboxReport): ExecOptions {
  const onSpawn = options.onSpawn;
  return onSpawn ? { ...options, onSpawn: (spawn) => onSpawn({ ...spawn, sandbox: report }) } : options;
}
