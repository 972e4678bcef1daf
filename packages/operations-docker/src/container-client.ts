import type { Duplex } from "node:stream";
import { OperationError } from "@tackle/operations";
import { ABORT_SETTLE_MS, settleWithin } from "@tackle/operations/adapter";
import type Docker from "dockerode";
import { demultiplex, type StreamFrame } from "./demux.js";
import { DockerOperationError, type EngineDescription, engineError } from "./engine-error.js";

/** Options for one process started inside the container. */
export interface ProcessOptions {
  /**
   * Bytes fed to the process's stdin, which is then closed; `"open"` keeps stdin open for the
   * caller to write through `input`. Without it stdin is /dev/null.
   */
  stdin?: Uint8Array | "open";
  /** Environment entries `KEY=value` added to the container's own. */
  env?: string[];
  /** Working directory inside the container (default: the adapter's `workdir`). */
  workdir?: string;
  /** Run as this user instead of the adapter's user. */
  user?: string;
  /** Name of the `Operations` method, for error messages. */
  operation?: string;
  path?: string;
}

/** A process running inside the container. */
export interface ContainerProcess {
  /** Output frames in arrival order; ends when the engine closes the stream. */
  readonly frames: AsyncGenerator<StreamFrame>;
  /**
   * Exit code from the exec inspect, after `frames` ended. `undefined` when the engine no longer
   * knows it (the container stopped while the process ran).
   */
  exitCode(): Promise<number | undefined>;
  /** Closes the attach stream (the process itself keeps running: stop it through its group). */
  detach(): void;
  /** The process's stdin, when started with `stdin: "open"`. */
  readonly input?: Duplex;
}

/** Bytes a process wrote, collected, and how it exited. */
export interface ProcessResult {
  exitCode: number | undefined;
  stdout: Buffer;
  stderr: Buffer;
}

/**
 * The adapter's one door to the engine: starts processes inside one container over the exec
 * API (create, start with a hijacked stream, inspect) and maps every engine failure to a typed
 * {@link DockerOperationError}.
 */
export class ContainerClient {
  readonly docker: Docker;
  readonly container: Docker.Container;

  constructor(
    docker: Docker,
    readonly containerName: string,
    readonly endpoint: EngineDescription,
    readonly user: string | undefined,
    readonly workdir: string | undefined,
  ) {
    this.docker = docker;
    this.container = docker.getContainer(containerName);
  }

  /** Maps an engine failure with this container's context. */
  fail(error: unknown, operation?: string, path?: string): OperationError {
    return engineError(error, { container: this.containerName, endpoint: this.endpoint, operation, path });
  }

  /** Starts `argv` inside the container (no shell unless argv names one). */
  async start(argv: string[], options: ProcessOptions = {}): Promise<ContainerProcess> {
    const { operation, path } = options;
    let exec: Docker.Exec;
    let stream: Duplex;
    try {
      exec = await this.container.exec({
        Cmd: argv,
        AttachStdout: true,
        AttachStderr: true,
        AttachStdin: options.stdin !== undefined,
        Tty: false,
        ...(options.env ? { Env: options.env } : {}),
        ...((options.user ?? this.user) ? { User: options.user ?? this.user } : {}),
        ...((options.workdir ?? this.workdir) ? { WorkingDir: options.workdir ?? this.workdir } : {}),
      });
      stream = (await exec.start({ hijack: true, stdin: options.stdin !== undefined })) as Duplex;
    } catch (error) {
      throw this.fail(error, operation, path);
    }
    // An error on the socket ends the frames early; exitCode() then says what is known.
    stream.on("error", () => {});
    if (options.stdin instanceof Uint8Array) feedStdin(stream, options.stdin);
    return {
      frames: demultiplex(stream),
      exitCode: () => this.exitCodeOf(exec, operation, path),
      detach: () => stream.destroy(),
      ...(options.stdin === "open" ? { input: stream } : {}),
    };
  }

  /** Runs `argv` to the end and collects its output (for short internal scripts). */
  async run(argv: string[], options: ProcessOptions & { signal?: AbortSignal } = {}): Promise<ProcessResult> {
    const process = await this.start(argv, options);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const onAbort = () => process.detach();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      for await (const frame of process.frames)
        (frame.stream === "stdout" ? stdout : stderr).push(Buffer.from(frame.bytes));
    } catch (error) {
      // A detached (aborted) stream ends with a premature-close error: that is the abort.
      if (!options.signal?.aborted) throw this.fail(error, options.operation, options.path);
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
    }
    if (options.signal?.aborted) {
      // Wait (briefly) for the script to notice its closed stdin and clean up, so "aborted"
      // means the call is over: no temp file appears after the caller moved on.
      await settleWithin(process.exitCode(), ABORT_SETTLE_MS);
      throw new OperationError("aborted", `${options.operation ?? "call"} aborted`, {
        cause: options.signal.reason,
        ...(options.operation ? { operation: options.operation } : {}),
        ...(options.path ? { path: options.path } : {}),
      });
    }
    return {
      exitCode: await process.exitCode(),
      stdout: Buffer.concat(stdout),
      stderr: Buffer.concat(stderr),
    };
  }

  /**
   * Reads the exit code once the stream ended. The engine may close the stream a moment before
   * it records the exit, so a still-running answer is retried briefly; a container that stopped
   * meanwhile gives `undefined` instead of a hang.
   */
  private async exitCodeOf(
    exec: Docker.Exec,
    operation?: string,
    path?: string,
  ): Promise<number | undefined> {
    for (let attempt = 0; attempt < 50; attempt++) {
      let info: Docker.ExecInspectInfo;
      try {
        info = await exec.inspect();
      } catch (error) {
        throw this.fail(error, operation, path);
      }
      if (!info.Running && typeof info.ExitCode === "number") return info.ExitCode;
      if (!(await this.isRunning())) return undefined;
      await delay(Math.min(5 + attempt * 5, 50));
    }
    return undefined;
  }

  /**
   * Turns a failure without a code (a stream that ended, a socket error) into the typed error
   * that explains it, by asking the engine about the container. Always throws.
   */
  async explain(error: unknown, operation: string, path?: string): Promise<never> {
    if (error instanceof OperationError) throw error;
    let info: Docker.ContainerInspectInfo;
    try {
      info = await this.container.inspect();
    } catch (inspectError) {
      throw this.fail(inspectError, operation, path);
    }
    if (!info.State.Running || info.State.Paused) {
      throw new DockerOperationError(
        "container_not_running",
        `${operation}: container ${this.containerName} is not running (it stopped during the call)`,
        { operation, ...(path ? { path } : {}), cause: error },
      );
    }
    throw this.fail(error, operation, path);
  }

  /** True while the container runs (false when stopped, paused or gone). */
  async isRunning(): Promise<boolean> {
    try {
      const info = await this.container.inspect();
      return info.State.Running && !info.State.Paused;
    } catch (error) {
      const failure = this.fail(error);
      if (failure instanceof DockerOperationError && failure.reason === "container_not_found") return false;
      throw failure;
    }
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Writes `data` to the exec's stdin with backpressure, then half-closes so the process sees EOF. */
function feedStdin(stream: Duplex, data: Uint8Array): void {
  const piece = 1 << 20;
  let offset = 0;
  const pump = () => {
    while (offset < data.length) {
      const end = Math.min(offset + piece, data.length);
      const more = stream.write(data.subarray(offset, end));
      offset = end;
      if (!more) {
        stream.once("drain", pump);
        return;
      }
    }
    stream.end();
  };
  pump();
}
