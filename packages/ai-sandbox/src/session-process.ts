/**
 * `spawn` and `run` of the sandbox session over Tackle's `exec`: output streamed into web
 * streams, the process ended through the call's signal (Tackle's exec ends the whole group,
 * escaped processes included, wherever the adapter can).
 */
import { type ExecOptions, type ExecResult, OperationError, type Operations } from "@tackle/operations";
import type { SandboxProcess, SandboxRunResult } from "./sandbox-types.js";

/** What one command needs from the session. */
export interface CommandRequest {
  command: string;
  cwd: string;
  shell: ExecOptions["shell"];
  env: Record<string, string> | undefined;
  abortSignal: AbortSignal | undefined;
  timeoutMs: number | undefined;
}

/** The exit code a sandbox process reports for a Tackle exec result. */
export function exitCodeOf(result: ExecResult): number {
  if (result.exitCode !== undefined) return result.exitCode;
  const number = result.signal === undefined ? undefined : SIGNAL_NUMBERS[result.signal];
  // The shells' convention for a process ended by a signal; 1 when nothing is known.
  return number === undefined ? 1 : 128 + number;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/**
 * Starts `request.command` through `ops.exec` and returns the AI SDK's process handle: stdout and
 * stderr as byte streams, `wait()` for the exit code (rejecting with the abort reason when the
 * caller's signal stopped it), `kill()` to end the whole process group (idempotent).
 */
export function spawnOnOperations(ops: Operations, request: CommandRequest): Promise<SandboxProcess> {
  request.abortSignal?.throwIfAborted();
  const stop = new AbortController();
  const onAbort = () => stop.abort(request.abortSignal?.reason);
  request.abortSignal?.addEventListener("abort", onAbort, { once: true });
  const stdout = new OutputStream();
  const stderr = new OutputStream();
  let pid: number | undefined;
  let started!: () => void;
  const spawned = new Promise<void>((resolve) => {
    started = resolve;
  });
  const finished = ops
    .exec(request.command, {
      shell: request.shell,
      cwd: request.cwd,
      signal: stop.signal,
      ...(request.env ? { env: request.env } : {}),
      ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
      onSpawn: (spawn) => {
        pid = spawn.pid;
        started();
      },
      onChunk: (chunk) => (chunk.stream === "stdout" ? stdout : stderr).push(chunk.bytes),
    })
    .finally(() => request.abortSignal?.removeEventListener("abort", onAbort));
  finished.then(
    () => {
      stdout.end();
      stderr.end();
    },
    (error: unknown) => {
      stdout.fail(error);
      stderr.fail(error);
    },
  );
  // A command that could not start rejects `spawn` itself; one that started resolves it.
  return Promise.race([spawned, finished]).then(() => handle());

  function handle(): SandboxProcess {
    return {
      ...(pid === undefined ? {} : { pid }),
      stdout: stdout.stream,
      stderr: stderr.stream,
      wait: async () => {
        const result = await finished;
        if (request.abortSignal?.aborted) throw request.abortSignal.reason;
        return { exitCode: exitCodeOf(result) };
      },
      kill: async () => {
        stop.abort(
          new OperationError("aborted", "killed through the sandbox session", { operation: "exec" }),
        );
        await finished.catch(() => undefined);
      },
    };
  }
}

/**
 * One output stream of a spawned process. The reader may cancel it at any time (it then stops
 * reading, and the command runs on): later output is dropped rather than thrown into `exec`.
 */
class OutputStream {
  readonly stream: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private open = true;

  constructor() {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.open = false;
      },
    });
  }

  push(bytes: Uint8Array): void {
    if (this.open) this.controller.enqueue(bytes.slice());
  }

  end(): void {
    if (this.open) this.controller.close();
    this.open = false;
  }

  fail(error: unknown): void {
    if (this.open) this.controller.error(error);
    this.open = false;
  }
}

/**
 * Runs `request.command` to its end and collects its output as text, each stream cut to
 * `maxOutputLength` UTF-16 code units when given (the full lengths are then reported). Rejects
 * with the abort reason when the caller's signal fired.
 */
export async function runOnOperations(
  ops: Operations,
  request: CommandRequest,
  maxOutputLength: number | undefined,
): Promise<SandboxRunResult> {
  request.abortSignal?.throwIfAborted();
  const out = new TextCollector(maxOutputLength);
  const err = new TextCollector(maxOutputLength);
  const result = await ops.exec(request.command, {
    shell: request.shell,
    cwd: request.cwd,
    ...(request.abortSignal ? { signal: request.abortSignal } : {}),
    ...(request.env ? { env: request.env } : {}),
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
    onChunk: (chunk) => (chunk.stream === "stdout" ? out : err).add(chunk.bytes),
  });
  if (request.abortSignal?.aborted) throw request.abortSignal.reason;
  const stdout = out.finish();
  const stderr = err.finish();
  return {
    exitCode: exitCodeOf(result),
    stdout: stdout.text,
    stderr: stderr.text,
    ...(maxOutputLength === undefined ? {} : { stdoutLength: stdout.length, stderrLength: stderr.length }),
  };
}

/** Decodes one stream as it arrives and keeps its first `max` code units (all without `max`). */
class TextCollector {
  private readonly decoder = new TextDecoder();
  private kept = "";
  private length = 0;

  constructor(private readonly max: number | undefined) {}

  add(bytes: Uint8Array): void {
    this.keep(this.decoder.decode(bytes, { stream: true }));
  }

  finish(): { text: string; length: number } {
    this.keep(this.decoder.decode());
    return { text: this.kept, length: this.length };
  }

  private keep(text: string): void {
    this.length += text.length;
    if (this.max === undefined) this.kept += text;
    else if (this.kept.length < this.max) this.kept += text.slice(0, this.max - this.kept.length);
  }
}
