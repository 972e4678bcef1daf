import { randomBytes } from "node:crypto";
import type { Duplex } from "node:stream";
import { OperationError } from "@tackle/operations";
import { ABORT_SETTLE_MS, settleWithin } from "@tackle/operations/adapter";
import { shellText } from "@tackle/operations/container-scripts";
import type { ContainerClient, ContainerProcess, ProcessResult } from "./container-client.js";
import { DockerOperationError } from "./engine-error.js";

/**
 * The loop of a resident shell: `sh -c SERVER sh BOUNDARY`, stdin kept open. Each request is a
 * header line `<script bytes> <data bytes>`, the script, then the data. The script runs in a
 * subshell with the data as its stdin (the rest of the data is drained whatever the script
 * read, so the next header is found where it belongs) and its stderr discarded; then the loop
 * writes `\n<BOUNDARY>:<exit status>\n` on stdout. `dd ... iflag=count_bytes,fullblock` reads
 * exactly that many bytes: busybox `head -c` reads through stdio and would swallow the next
 * request.
 */
const SERVER_SCRIPT = shellText`
_b=$1
while IFS= read -r _h; do
  _sl=\${_h%% *}; _dl=\${_h#* }
  _s=$(dd bs=65536 count="$_sl" iflag=count_bytes,fullblock 2>/dev/null; echo x); _s=\${_s%x}
  if [ "$_dl" -gt 0 ]; then
    dd bs=65536 count="$_dl" iflag=count_bytes,fullblock 2>/dev/null | { (eval "$_s") 2>/dev/null; _st=$?; cat >/dev/null; exit "$_st"; }
  else
    (eval "$_s") </dev/null 2>/dev/null
  fi
  printf '\n%s:%s\n' "$_b" "$?"
done
`;

/** Quotes `value` for sh: inside single quotes everything is literal except `'` itself. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

interface Pending {
  resolve(result: ProcessResult): void;
  reject(error: unknown): void;
  chunks: Buffer[];
  /** Streaming request: output goes here as it arrives instead of into `chunks`. */
  onChunk: ((chunk: Buffer) => void) | undefined;
}

/** How often a pending request checks that the container still runs (a paused one hangs it). */
const WATCHDOG_MS = 2000;

/** Streamed output not yet taken by the consumer above which the shell's socket is not read. */
const HIGH_WATER_BYTES = 1 << 20;

/**
 * One long-lived `sh` in the container that runs short scripts on request, so a file call costs
 * a write and a read on an open exec stream instead of a new exec (a runc process start, tens of
 * milliseconds). One request at a time; see {@link ResidentShellPool} for concurrency.
 */
class ResidentShell {
  private readonly marker: Buffer;
  private pending: Pending | undefined;
  /** Bytes seen after the last complete response that may hold the start of a marker. */
  private window: Buffer = Buffer.alloc(0);
  /** Streamed bytes handed out and not yet consumed, and who waits for them to drain. */
  private queued = 0;
  private readonly drained: (() => void)[] = [];
  dead = false;

  private constructor(
    private readonly client: ContainerClient,
    private readonly process: ContainerProcess,
    private readonly input: Duplex,
    boundary: string,
  ) {
    this.marker = Buffer.from(`\n${boundary}:`, "latin1");
    this.hold(false);
    void this.pump();
  }

  /**
   * An idle shell must not keep the host process alive (a CLI that never disposes would hang at
   * exit); a request in flight must, or Node could exit with the call pending.
   */
  private hold(busy: boolean): void {
    const socket = this.input as Duplex & { ref?: () => void; unref?: () => void };
    if (busy) socket.ref?.();
    else socket.unref?.();
  }

  static async start(client: ContainerClient): Promise<ResidentShell> {
    const boundary = randomBytes(16).toString("hex");
    const process = await client.start(["sh", "-c", SERVER_SCRIPT, "sh", boundary], {
      stdin: "open",
      operation: "connect",
    });
    if (!process.input) throw new Error("resident shell: no stdin");
    return new ResidentShell(client, process, process.input, boundary);
  }

  /**
   * Runs `script` with `data` on its stdin; resolves with its stdout and exit status. With
   * `onChunk`, stdout goes there as it arrives (and is not in the result); the caller reports
   * what it took with {@link consumed} so a slow consumer pauses the socket.
   */
  request(
    script: string,
    data: Uint8Array | undefined,
    onChunk?: (chunk: Buffer) => void,
  ): Promise<ProcessResult> {
    if (this.dead || this.pending) return Promise.reject(new Error("resident shell not available"));
    return new Promise<ProcessResult>((resolve, reject) => {
      this.hold(true);
      const watchdog = setInterval(() => void this.checkContainer(), WATCHDOG_MS);
      watchdog.unref();
      this.pending = {
        resolve: (result) => {
          clearInterval(watchdog);
          this.hold(false);
          resolve(result);
        },
        reject: (error) => {
          clearInterval(watchdog);
          this.hold(false);
          reject(error);
        },
        chunks: [],
        onChunk,
      };
      const text = Buffer.from(script, "utf8");
      const size = data?.length ?? 0;
      this.input.write(`${text.length} ${size}\n`);
      this.input.write(text);
      if (data && size > 0) this.input.write(data);
    });
  }

  /**
   * A paused container freezes the shell without ending its stream: a request would wait
   * forever. While one is pending, the container's state is checked every {@link WATCHDOG_MS};
   * a container that is not running fails the request and retires the shell.
   */
  private async checkContainer(): Promise<void> {
    let running: boolean;
    try {
      running = await this.client.isRunning();
    } catch {
      return; // The engine itself is unreachable: the stream breaking will say so.
    }
    const pending = this.pending;
    if (running || !pending) return;
    this.pending = undefined;
    this.close();
    pending.reject(
      new DockerOperationError(
        "container_not_running",
        `Container ${this.client.containerName} is not running (paused or stopped during the call)`,
        {},
      ),
    );
  }

  /** Streamed bytes the consumer has taken: reading resumes below the high-water mark. */
  consumed(bytes: number): void {
    this.queued -= bytes;
    if (this.queued <= HIGH_WATER_BYTES) for (const wake of this.drained.splice(0)) wake();
  }

  /** Ends the shell: it exits at its next `read`. A request in flight is rejected by the caller. */
  close(): void {
    this.dead = true;
    this.input.end();
    this.process.detach();
    for (const wake of this.drained.splice(0)) wake();
  }

  /** Waits (bounded) until the shell's process ended, e.g. after an aborted write. */
  async settled(ms: number): Promise<void> {
    await settleWithin(this.process.exitCode(), ms);
  }

  private async pump(): Promise<void> {
    let failure: unknown;
    try {
      for await (const frame of this.process.frames) {
        if (frame.stream === "stdout") this.accept(Buffer.from(frame.bytes));
        while (this.queued > HIGH_WATER_BYTES && !this.dead) {
          await new Promise<void>((resolve) => this.drained.push(resolve));
        }
      }
    } catch (error) {
      failure = error;
    }
    this.dead = true;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(failure ?? new Error("resident shell ended"));
  }

  /** Feeds stdout bytes; completes the pending request when its end marker has arrived whole. */
  private accept(bytes: Buffer): void {
    let buffer = this.window.length > 0 ? Buffer.concat([this.window, bytes]) : bytes;
    for (;;) {
      const pending = this.pending;
      const at = buffer.indexOf(this.marker);
      const newline = at === -1 ? -1 : buffer.indexOf(0x0a, at + this.marker.length);
      if (at === -1 || newline === -1) {
        // Keep a tail that may be the start of a marker; the rest is output.
        const keep = at !== -1 ? buffer.length - at : Math.min(buffer.length, this.marker.length + 8);
        if (pending) this.output(pending, buffer.subarray(0, buffer.length - keep));
        this.window = Buffer.from(buffer.subarray(buffer.length - keep));
        return;
      }
      const status = Number(buffer.subarray(at + this.marker.length, newline).toString("latin1"));
      if (pending) {
        this.output(pending, buffer.subarray(0, at));
        this.pending = undefined;
        pending.resolve({ exitCode: status, stdout: Buffer.concat(pending.chunks), stderr: Buffer.alloc(0) });
      }
      buffer = buffer.subarray(newline + 1);
      this.window = Buffer.alloc(0);
      if (buffer.length === 0) return;
    }
  }

  private output(pending: Pending, bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (!pending.onChunk) {
      pending.chunks.push(bytes);
      return;
    }
    // Copied: the window buffer behind `bytes` is reused.
    this.queued += bytes.length;
    pending.onChunk(Buffer.from(bytes));
  }
}

/** Most resident shells one adapter keeps (calls beyond that wait for a free one). */
const MAX_SHELLS = 4;

/**
 * A small pool of {@link ResidentShell}s: each call takes an idle shell (starting one when all
 * are busy, up to {@link MAX_SHELLS}), so parallel tool calls do not queue behind a long read.
 * An aborted call closes its shell (the script sees its stdin end) rather than reuse it.
 */
export class ResidentShellPool {
  private readonly idle: ResidentShell[] = [];
  private count = 0;
  private readonly waiting: ((shell: ResidentShell | undefined) => void)[] = [];
  private closed = false;

  constructor(private readonly client: ContainerClient) {}

  /** Runs `script` (a complete sh text, arguments already quoted in) with `data` as stdin. */
  async run(
    script: string,
    options: { data?: Uint8Array; signal?: AbortSignal; operation: string; path?: string },
  ): Promise<ProcessResult> {
    const shell = await this.acquire(options.operation, options.path);
    const { signal } = options;
    let onAbort: (() => void) | undefined;
    try {
      const result = shell.request(script, options.data);
      if (!signal) return await result;
      return await Promise.race([
        result,
        new Promise<never>((_, reject) => {
          onAbort = () => reject(signal.reason);
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } catch (error) {
      shell.close();
      if (signal?.aborted) {
        await shell.settled(ABORT_SETTLE_MS);
        throw new OperationError("aborted", `${options.operation} aborted`, {
          operation: options.operation,
          cause: signal.reason,
          ...(options.path ? { path: options.path } : {}),
        });
      }
      throw error;
    } finally {
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      this.release(shell);
    }
  }

  /**
   * Runs `script` and yields its stdout as it arrives, with constant memory: the shell's socket
   * is not read while the consumer holds more than the high-water mark. Returns the exit status.
   * Leaving early (break, abort) retires the shell: the rest of the output is not drained.
   */
  async *stream(
    script: string,
    options: { signal?: AbortSignal; operation: string; path?: string },
  ): AsyncGenerator<Uint8Array, number> {
    const shell = await this.acquire(options.operation, options.path);
    const { signal } = options;
    const queue: Buffer[] = [];
    let wake: (() => void) | undefined;
    let outcome: { status: number } | { error: unknown } | undefined;
    const onAbort = () => wake?.();
    signal?.addEventListener("abort", onAbort, { once: true });
    shell
      .request(script, undefined, (chunk) => {
        queue.push(chunk);
        wake?.();
      })
      .then(
        (result) => {
          outcome = { status: result.exitCode ?? 1 };
        },
        (error: unknown) => {
          outcome = { error };
        },
      )
      .finally(() => wake?.());
    let finished = false;
    try {
      for (;;) {
        if (signal?.aborted) {
          throw new OperationError("aborted", `${options.operation} aborted`, {
            operation: options.operation,
            cause: signal.reason,
            ...(options.path ? { path: options.path } : {}),
          });
        }
        const chunk = queue.shift();
        if (chunk) {
          shell.consumed(chunk.length);
          yield chunk;
          continue;
        }
        if (outcome) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      if ("error" in outcome) throw outcome.error;
      finished = true;
      return outcome.status;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (!finished) shell.close();
      this.release(shell);
    }
  }

  /** Closes every shell. Idempotent. */
  close(): void {
    this.closed = true;
    for (const shell of this.idle.splice(0)) shell.close();
    for (const wake of this.waiting.splice(0)) wake(undefined);
  }

  private async acquire(operation: string, path: string | undefined): Promise<ResidentShell> {
    for (;;) {
      if (this.closed)
        throw new OperationError("aborted", `${operation}: the adapter was disposed`, { operation });
      const shell = this.idle.pop();
      if (shell && !shell.dead) return shell;
      if (shell) {
        this.count--;
        continue;
      }
      if (this.count < MAX_SHELLS) {
        this.count++;
        try {
          return await ResidentShell.start(this.client);
        } catch (error) {
          this.count--;
          throw this.client.fail(error, operation, path);
        }
      }
      const next = await new Promise<ResidentShell | undefined>((resolve) => this.waiting.push(resolve));
      if (next) return next;
    }
  }

  private release(shell: ResidentShell): void {
    if (shell.dead || this.closed) {
      this.count--;
      if (!shell.dead) shell.close();
      // A waiter may start a fresh shell in the freed slot.
      this.waiting.shift()?.(undefined);
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter(shell);
    else this.idle.push(shell);
  }
}
