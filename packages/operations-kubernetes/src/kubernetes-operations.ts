import { randomBytes } from "node:crypto";
import {
  type ExecOptions,
  type ExecResult,
  OperationError,
  type Operations,
  tempFileDomain,
} from "@tackle/operations";
import {
  ConnectOnce,
  checkAdapterOptions,
  filesAfterConnect,
  type OptionSpec,
  RunningCommands,
} from "@tackle/operations/adapter";
import { shellText } from "@tackle/operations/container-scripts";
import { type KubernetesConnection, loadKubeConfig } from "./kube-config.js";
import { KubernetesOperationError } from "./kube-error.js";
import { PodClient, type ResolvedPod } from "./pod-client.js";
import { createPodFiles } from "./pod-files.js";
import { type PodSandboxFacts, podSandboxReport } from "./pod-sandbox.js";
import { type PodTarget, resolvePod } from "./pod-target.js";
import { runCommand } from "./run-command.js";
import { copyFromPod, copyToPod } from "./tar-copy.js";

/** Longest wait for a Sandbox or SandboxClaim to be ready, by default. */
export const DEFAULT_READY_TIMEOUT_MS = 120_000;

/**
 * Options of {@link createKubernetesOperations}: the target (one of `pod`, `selector`,
 * `sandbox`, `sandboxClaim`) and how to reach the cluster.
 *
 * @example
 * ```ts
 * createKubernetesOperations({ pod: "dev-0", namespace: "agents", container: "main" });
 * createKubernetesOperations({ sandboxClaim: "session-42", namespace: "agents", readyTimeoutMs: 60_000 });
 * ```
 */
export type KubernetesOperationsOptions = PodTarget &
  KubernetesConnection & {
    /** Namespace of the target (default: the context's, else `default`). */
    namespace?: string;
    /** Container in the pod (default: kubectl's, the `kubectl.kubernetes.io/default-container` annotation, else the first). */
    container?: string;
    /** Writable directory in the container for per-command control files (default `/tmp`). */
    tempDir?: string;
    /** Longest wait for a Sandbox or SandboxClaim to be ready (default {@link DEFAULT_READY_TIMEOUT_MS}). */
    readyTimeoutMs?: number;
    /**
     * Run file calls on up to four long-lived `sh` processes in the container (default true):
     * one request on an open exec stream instead of a new exec per call. `false`: one exec per
     * call, nothing stays running between calls.
     */
    residentShells?: boolean;
  };

/** What each option of {@link KubernetesOperationsOptions} must be. */
const OPTION_SPEC = {
  pod: "string",
  selector: "string",
  sandbox: "string",
  sandboxClaim: "string",
  kubeconfig: {
    expected: "a KubeConfig or the path of a kubeconfig file",
    test: (value) =>
      (typeof value === "string" && value !== "") || (typeof value === "object" && value !== null),
  },
  context: "non-empty-string",
  namespace: "non-empty-string",
  container: "non-empty-string",
  tempDir: "non-empty-string",
  readyTimeoutMs: "positive-number",
  residentShells: "boolean",
} as const satisfies OptionSpec;

/** An `Operations` in a pod, plus connection control (the shape of every remote adapter). */
export interface KubernetesOperations extends Operations {
  /** The pod, namespace and container, once connected. */
  readonly pod: ResolvedPod | undefined;
  /** The kubeconfig context in use. */
  readonly context: string;
  /** The namespace of the target. */
  readonly namespace: string;
  /**
   * Resolves the target now (otherwise the first call does): reads the pod (waiting for a
   * Sandbox or SandboxClaim to be ready), checks it runs, and learns the home directory. Rejects
   * with a {@link KubernetesOperationError}; a failed attempt is tried again by the next call.
   */
  connect(options?: { signal?: AbortSignal | undefined }): Promise<void>;
  /**
   * Copies a host directory's contents into a pod directory (created if missing) as one tar over
   * exec, like `kubectl cp`: files, directories, links as links, permission bits.
   */
  copyToPod(localDir: string, podDir: string, options?: { signal?: AbortSignal | undefined }): Promise<void>;
  /**
   * Copies a pod directory's contents into a host directory (created if missing) as one tar over
   * exec. An entry that would land outside `localDir` is refused (`outside_root`).
   */
  copyFromPod(
    podDir: string,
    localDir: string,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<void>;
  /** Cancels running commands and closes the resident shells. Idempotent. */
  dispose(): Promise<void>;
}

/** HOME, the boot id and the pid namespace (the writer domain of temp files; empty without /proc). */
const PROBE_SCRIPT = shellText`
printf '%s\n' "$HOME"
cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo
readlink /proc/self/ns/pid 2>/dev/null || echo
`;

interface PodFacts {
  home: string | undefined;
  writerDomain: string;
  /** What the container's spec enforces, for sandboxed calls. */
  sandbox: PodSandboxFacts;
}

/**
 * `Operations` inside a running pod's container, through the API server's pod exec (websocket,
 * `v5.channel.k8s.io`, else `v4.channel.k8s.io`) with `@kubernetes/client-node`: files through
 * short busybox-level sh scripts, commands in their own process group under a wrapper that
 * applies `cwd` and `env` (pod exec has neither) and ends what the command leaves behind.
 * Commands run as the container's user (pod exec has no user option): the tools can do what
 * that user can.
 *
 * Created synchronously; connects on the first call or on `connect()`.
 *
 * @example
 * ```ts
 * const ops = createKubernetesOperations({ pod: "dev-0", namespace: "agents" });
 * await ops.connect();
 * const result = await ops.exec("ls", { shell: "sh", cwd: "/" });
 * await ops.dispose();
 * ```
 */
export function createKubernetesOperations(options: KubernetesOperationsOptions): KubernetesOperations {
  checkAdapterOptions("createKubernetesOperations", options, OPTION_SPEC);
  const named = (["pod", "selector", "sandbox", "sandboxClaim"] as const).filter(
    (key) => typeof options?.[key] === "string" && (options[key] as string).trim() !== "",
  );
  if (named.length !== 1) {
    throw new OperationError(
      "invalid_argument",
      `createKubernetesOperations: give exactly one of pod, selector, sandbox, sandboxClaim (got ${named.length === 0 ? "none" : named.join(", ")})`,
      { operation: "createKubernetesOperations" },
    );
  }
  const { config, place } = loadKubeConfig(options, options.namespace);
  const client = new PodClient(config, place);
  const tempDir = options.tempDir ?? "/tmp";
  const files = createPodFiles(client, options.residentShells !== false, () => {
    const known = connection.known;
    if (!known) throw new Error("the writer domain is read before connecting");
    return known.writerDomain;
  });
  const learn = async (signal: AbortSignal | undefined): Promise<PodFacts> => {
    const { sandbox, ...pod } = await resolvePod(
      config,
      place,
      options as PodTarget,
      options.container,
      options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
      signal,
    );
    client.pod = pod;
    const result = await client.run(["sh", "-c", PROBE_SCRIPT], { operation: "connect" });
    if (result.exitCode !== 0) {
      throw new KubernetesOperationError(
        "api_error",
        `Pod ${client.pod.pod} cannot run sh (exit ${result.exitCode ?? "unknown"}): ${result.stderr.toString("utf8").trim()}`,
        { place, operation: "connect" },
      );
    }
    // A tool call often runs several file calls at once (an audit snapshot beside the output
    // file's creation): shells started now are running by then.
    files.warm();
    const [home = "", bootId = "", pidNamespace = ""] = result.stdout.toString("utf8").split("\n");
    return {
      home: home || undefined,
      sandbox,
      // Without /proc no pid can be checked: a domain of its own leaves sweeping to age.
      writerDomain:
        bootId && pidNamespace ? tempFileDomain(bootId, pidNamespace) : randomBytes(6).toString("hex"),
    };
  };
  const connection = new ConnectOnce<PodFacts>(learn);

  // dispose() cancels commands still running (TERM, then KILL, through their process groups).
  const running = new RunningCommands<ExecResult>();
  const exec = async (command: string, execOptions: ExecOptions): Promise<ExecResult> => {
    // A sandboxed call runs only when the pod gives what it asks (checked against its spec, see
    // pod-sandbox.ts), else not_supported naming what is missing: never run without it.
    const report = execOptions.sandbox
      ? podSandboxReport(
          execOptions.sandbox,
          `pod ${client.pod?.pod ?? "(unresolved)"}`,
          connection.known?.sandbox ?? { readOnlyRoot: false, writable: [], seccomp: false },
        )
      : undefined;
    const { sandbox: _sandbox, ...plain } = execOptions;
    const onSpawn = plain.onSpawn;
    const run: ExecOptions =
      report && onSpawn ? { ...plain, onSpawn: (spawn) => onSpawn({ ...spawn, sandbox: report }) } : plain;
    const result = await running.run(execOptions.signal, (signal) =>
      runCommand({ client, tempDir }, command, { ...run, signal }),
    );
    return report ? { ...result, sandbox: report } : result;
  };
  let disposed: Promise<void> | undefined;

  return {
    id: `k8s://${place.context}/${place.namespace}/${options[named[0] as keyof PodTarget]}${options.container ? `/${options.container}` : ""}`,
    platform: "posix",
    context: place.context,
    namespace: place.namespace,
    get pod() {
      return client.pod;
    },
    get homeDir() {
      return connection.known?.home;
    },
    ...filesAfterConnect(files, connection),
    exec: connection.after(exec),
    copyToPod: connection.after(
      (localDir: string, podDir: string, copyOptions?: { signal?: AbortSignal | undefined }) =>
        copyToPod(client, localDir, podDir, copyOptions?.signal),
    ),
    copyFromPod: connection.after(
      (podDir: string, localDir: string, copyOptions?: { signal?: AbortSignal | undefined }) =>
        copyFromPod(client, podDir, localDir, copyOptions?.signal),
    ),
    async connect(connectOptions) {
      await connection.ready(connectOptions?.signal);
    },
    dispose() {
      disposed ??= (async () => {
        await running.cancelAll();
        files.close();
      })();
      return disposed;
    },
  };
}
