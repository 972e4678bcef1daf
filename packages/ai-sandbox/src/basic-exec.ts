/**
 * `exec` in `"basic"` mode: the command through the session's `spawn`, its output streamed as
 * numbered chunks, a timeout or an abort ending it through `kill()`. An output file
 * (`outputPath`) is kept by this host: the output budget's head and rolling tail, written
 * through the session's file methods while the command runs (the head, at most every
 * `OUTPUT_FLUSH_MS`) and whole with the cut marker when it ends.
 */
import {
  type ExecOptions,
  type ExecResult,
  OperationError,
  type OutputCut,
  outputCutMarker,
  outputHeadBytes,
  outputTailBytes,
  throwIfAborted,
} from "@tackle/operations";
import type { SandboxProcess, SandboxSessionLike } from "./sandbox-types.js";
import { sessionFailure } from "./session-shell.js";

/** Longest the output file lags behind the command's output while it runs, ms. */
export const OUTPUT_FLUSH_MS = 200;

/** What the session reports about a stopped command's processes: nothing. */
const UNCONFIRMED = "the sandbox session ends a process with kill() and reports nothing about its children";

/**
 * Runs `command` through `session.spawn` (see the module comment). The session tells nothing
 * about the processes a command started, so a stopped command's cleanup is unconfirmed; an OS
 * sandbox and removing a variable are refused with `not_supported`.
 */
export async function execBasic(
  session: SandboxSessionLike,
  command: string,
  options: ExecOptions,
): Promise<ExecResult> {
  throwIfAborted(options.signal, "exec");
  const refuse = (what: string) =>
    new OperationError("not_supported", `exec: ${what} is not possible on this sandbox session`, {
      operation: "exec",
    });
  if (options.sandbox) throw refuse("an OS sandbox");
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) throw refuse(`removing a variable (${key})`);
    env[key] = value;
  }
  const file =
    options.outputPath === undefined
      ? undefined
      : await OutputFile.open(session, options.outputPath, options);
  const streamChunks = file === undefined || options.streamChunks !== false;
  const startedAt = Date.now();
  let process: SandboxProcess;
  try {
    process = await session.spawn({
      command,
      workingDirectory: options.cwd,
      ...(Object.keys(env).length > 0 ? { env } : {}),
    });
  } catch (error) {
    throw sessionFailure(error, "exec", options.signal, options.cwd);
  }
  if (process.pid !== undefined) options.onSpawn?.({ pid: process.pid, pgid: process.pid });
  let stopReason: "timed-out" | "cancelled" | undefined;
  const stop = (reason: "timed-out" | "cancelled") => {
    stopReason ??= reason;
    void Promise.resolve(process.kill()).catch(() => undefined);
  };
  const timer =
    options.timeoutMs !== undefined
      ? setTimeout(() => stop("timed-out"), Math.max(0, options.timeoutMs))
      : undefined;
  const onAbort = () => stop("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let seq = 0;
  const bytes = { stdout: 0, stderr: 0 };
  const relay = async (stream: ReadableStream<Uint8Array>, name: "stdout" | "stderr") => {
    for await (const chunk of stream) {
      bytes[name] += chunk.length;
      file?.add(chunk);
      if (streamChunks) options.onChunk?.({ seq: seq++, stream: name, bytes: chunk });
    }
  };
  let exitCode: number | undefined;
  let lost: string | undefined;
  try {
    await Promise.all([relay(process.stdout, "stdout"), relay(process.stderr, "stderr")]);
    exitCode = (await process.wait()).exitCode;
  } catch (error) {
    lost = error instanceof Error ? error.message : String(error);
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  const outputCut = await file?.close();
  const counts = {
    elapsedMs: Date.now() - startedAt,
    // Without streaming, everything appended to the file counts as stdout (as the contract says).
    stdoutBytes: streamChunks ? bytes.stdout : bytes.stdout + bytes.stderr,
    stderrBytes: streamChunks ? bytes.stderr : 0,
    ...(outputCut ? { outputCut } : {}),
  };
  if (stopReason) {
    return {
      status: stopReason,
      ...(exitCode === undefined ? {} : { exitCode }),
      ...counts,
      cleanup: { termSent: true, killSent: false, confirmed: false, note: UNCONFIRMED },
    };
  }
  if (exitCode === undefined) {
    return {
      status: "unknown",
      ...counts,
      cleanup: { termSent: false, killSent: false, confirmed: false, note: lost ?? UNCONFIRMED },
    };
  }
  return {
    status: exitCode === 0 ? "completed" : "failed",
    exitCode,
    ...counts,
    cleanup: { termSent: false, killSent: false, confirmed: true },
  };
}

/**
 * The output file of one command, kept by this host: what it held before, then the output (all
 * of it, or with `outputLimitBytes` the head and a rolling tail), rewritten through the session.
 */
class OutputFile {
  private head: Uint8Array[] = [];
  private headLength = 0;
  private tail: Uint8Array[] = [];
  private tailLength = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly session: SandboxSessionLike,
    private readonly path: string,
    private readonly before: Uint8Array,
    private readonly limit: number | undefined,
  ) {}

  static async open(session: SandboxSessionLike, path: string, options: ExecOptions): Promise<OutputFile> {
    let before: Uint8Array | null;
    try {
      before = await session.readBinaryFile({ path });
    } catch (error) {
      throw sessionFailure(error, "exec", options.signal, path);
    }
    const limit =
      options.outputLimitBytes === undefined ? undefined : Math.max(0, Math.floor(options.outputLimitBytes));
    const file = new OutputFile(session, path, before ?? new Uint8Array(), limit);
    await file.write(false);
    return file;
  }

  add(chunk: Uint8Array): void {
    let rest = chunk;
    const headRoom = this.limit === undefined ? rest.length : outputHeadBytes(this.limit) - this.headLength;
    if (headRoom > 0) {
      const taken = rest.subarray(0, headRoom);
      this.head.push(taken.slice());
      this.headLength += taken.length;
      rest = rest.subarray(taken.length);
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.flushing = this.flushing.then(() => this.write(false));
      }, OUTPUT_FLUSH_MS);
    }
    if (rest.length === 0 || this.limit === undefined) return;
    this.tail.push(rest.slice());
    this.tailLength += rest.length;
    const keep = outputTailBytes(this.limit);
    while (this.tailLength - (this.tail[0]?.length ?? 0) >= keep) {
      const first = this.tail.shift() as Uint8Array;
      this.tailLength -= first.length;
      this.dropped += first.length;
    }
  }

  /** Writes the whole file once more (the cut marker and the tail when past the budget). */
  async close(): Promise<OutputCut | undefined> {
    if (this.timer) clearTimeout(this.timer);
    await this.flushing;
    if (this.limit === undefined) {
      await this.write(true);
      return undefined;
    }
    // The rolling tail holds whole chunks: cut it to exactly the tail budget.
    const keep = outputTailBytes(this.limit);
    const tail = Buffer.concat(this.tail);
    const over = Math.max(0, tail.length - keep);
    this.tail = [tail.subarray(over)];
    this.dropped += over;
    await this.write(true);
    if (this.dropped === 0) return undefined;
    return { headBytes: outputHeadBytes(this.limit), droppedBytes: this.dropped, tailBytes: keep };
  }

  private async write(final: boolean): Promise<void> {
    const parts: Uint8Array[] = [this.before, ...this.head];
    if (final && this.limit !== undefined) {
      if (this.dropped > 0) parts.push(new TextEncoder().encode(outputCutMarker(this.limit, this.dropped)));
      parts.push(...this.tail);
    }
    await this.session.writeBinaryFile({ path: this.path, content: Buffer.concat(parts) });
  }
}
