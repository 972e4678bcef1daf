import type { KubeConfig } from "@kubernetes/client-node";
import { OperationError } from "@tackle/operations";
import { ABORT_SETTLE_MS, settleWithin } from "@tackle/operations/adapter";
import { apiFailure, type ClusterPlace, KubernetesOperationError } from "./kube-error.js";
import { type ExecTarget, ExecUpgradeError, type PodProcess, startPodExec } from "./pod-exec.js";

/** Where the adapter runs, once its target is resolved. */
export interface ResolvedPod extends ExecTarget {
  /** What the caller named (`pod web-0`, `sandbox dev`, `pods app=web`), for messages. */
  described: string;
}

/** Output of a process run to its end. */
export interface RunResult {
  /** `undefined` when the connection dropped before the status came. */
  exitCode: number | undefined;
  stdout: Buffer;
  stderr: Buffer;
}

/** Options of {@link PodClient.run}. */
export interface RunOptions {
  /** Bytes for stdin (the script is told how many to read; on v5 stdin is closed after them). */
  stdin?: Uint8Array;
  signal?: AbortSignal | undefined;
  operation?: string;
  path?: string;
}

/**
 * The adapter's one door to the API server: starts processes in the resolved pod's container
 * through pod exec and turns every refusal into a typed {@link KubernetesOperationError}.
 */
export class PodClient {
  /** Set once the target is resolved (connect). */
  pod: ResolvedPod | undefined;

  constructor(
    readonly config: KubeConfig,
    readonly place: ClusterPlace & { server: string },
  ) {}

  private target(): ResolvedPod {
    if (!this.pod) throw new Error("the pod is used before the adapter connected");
    return this.pod;
  }

  /** Starts `argv` in the container (no shell unless argv names one). */
  async start(
    argv: string[],
    options: { stdin?: boolean; operation?: string; path?: string } = {},
  ): Promise<PodProcess> {
    const pod = this.target();
    try {
      return await startPodExec(this.config, pod, argv, { stdin: options.stdin === true });
    } catch (error) {
      throw this.fail(error, options.operation ?? "exec", options.path);
    }
  }

  /** Maps a failed exec start to a typed error. */
  fail(error: unknown, operation: string, path?: string): OperationError {
    if (error instanceof OperationError) return error;
    const pod = this.target();
    const look = `get pod ${pod.pod}`;
    const what = `pod ${pod.pod}`;
    if (error instanceof ExecUpgradeError) {
      const failure = apiFailure(
        { status: error.status, body: error.body, cause: error },
        this.place,
        what,
        look,
        "exec",
      );
      return path
        ? new KubernetesOperationError(failure.reason, failure.message, {
            place: this.place,
            operation,
            path,
            cause: error,
          })
        : failure;
    }
    return apiFailure({ cause: error }, this.place, what, look, operation);
  }

  /** Runs `argv` to its end and collects the output (short internal scripts). */
  async run(argv: string[], options: RunOptions = {}): Promise<RunResult> {
    const operation = options.operation ?? "exec";
    const process = await this.start(argv, {
      stdin: options.stdin !== undefined,
      operation,
      ...(options.path ? { path: options.path } : {}),
    });
    if (options.stdin) {
      process.write(options.stdin);
      process.closeStdin();
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const onAbort = () => process.detach();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      for await (const frame of process.frames)
        (frame.stream === "stdout" ? stdout : stderr).push(Buffer.from(frame.bytes));
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
    }
    if (options.signal?.aborted) {
      // The script sees its stdin end (or its output break) and cleans up: wait a moment so
      // "aborted" means the call is over.
      await settleWithin(process.ended, ABORT_SETTLE_MS);
      throw new OperationError("aborted", `${operation} aborted`, {
        operation,
        cause: options.signal.reason,
        ...(options.path ? { path: options.path } : {}),
      });
    }
    const end = await process.ended;
    if (end.kind === "failed") {
      throw new KubernetesOperationError(
        "api_error",
        `${operation}: the container could not run the command: ${end.message}`,
        {
          place: this.place,
          operation,
          ...(options.path ? { path: options.path } : {}),
        },
      );
    }
    return {
      exitCode: end.kind === "exited" ? end.exitCode : undefined,
      stdout: Buffer.concat(stdout),
      stderr: Buffer.concat(stderr),
    };
  }

  /** The error for a call whose connection dropped before the exit status came. */
  lost(operation: string, path?: string): OperationError {
    const pod = this.target();
    return new OperationError(
      "connection_lost",
      `${operation}: the exec stream to pod ${pod.pod} (namespace ${pod.namespace}) closed before the exit status came`,
      { operation, ...(path ? { path } : {}) },
    );
  }
}
