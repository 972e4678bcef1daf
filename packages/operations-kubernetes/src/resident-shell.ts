import { randomBytes } from "node:crypto";
import { OperationError } from "@tackle/operations";
import { ABORT_SETTLE_MS, settleWithin } from "@tackle/operations/adapter";
import { shellText } from "@tackle/operations/container-scripts";
import type { PodClient, RunResult } from "./pod-client.js";
import type { PodProcess } from "./pod-exec.js";

/**
 * The loop of a resident shell, `sh -c LOOP sh BOUNDARY` with stdin open: each request is a
 * header line `<script bytes> <data bytes>`, the script, then the data. The script runs in a
 * subshell with exactly the data on its stdin (`dd` with `count_bytes,fullblock` reads exactly
 * that many; what the script leaves unread is drained, so the next header is where it belongs)
 * and its stderr discarded; then the loop prints `\n<BOUNDARY>:<status>\n`. When the exec
 * connection goes away the API server closes stdin: `read` fails and the shell exits.
 */
const LOOP_SCRIPT = shellText`
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

/** Streamed output not yet taken by the reader above which the shell's stream is not read. */
const HIGH_WATER_BYTES = 1 << 20;

/** Most resident shells one adapter keeps; more parallel calls wait for one. */
export const MAX_RESIDENT_SHELLS = 4;
/**
 * How long a request whose reader left early (a listing cut by its time budget) may run on
 * before its shell is closed instead of reused: a shell kept keeps the next call fast.
 */
const ABANDONED_REQUEST_MS = 2000;

interface Request {
  resolve(result: RunResult): void;
  reject(error: unknown): void;
  chunks: Buffer[];
  onChunk: ((chunk: Buffer) => void) | undefined;
}

/**
 * One long-lived `sh` in the container running scripts on request: a file call costs a write and
 * a read on an open exec stream instead of a new exec (a websocket handshake through the API
 * server and a process start by the kubelet's runtime). One request at a time.
 */
class ResidentShell {
  private readonly marker: Buffer;
  private request: Request | undefined;
  private carry: Buffer = Buffer.alloc(0);
  private queued = 0;
  private readonly drained: (() => void)[] = [];
  dead = false;

  private constructor(
    private readonly process: PodProcess,
    boundary: string,
  ) {
    this.marker = Buffer.from(`\n${boundary}:`, "latin1");
    process.hold(false);
    void this.pump();
  }

  static async start(client: PodClient): Promise<ResidentShell> {
    const boundary = randomBytes(16).toString("hex");
    const process = await client.start(["sh", "-c", LOOP_SCRIPT, "sh", boundary], {
      stdin: true,
      operation: "connect",
    });
    return new ResidentShell(process, boundary);
  }

  /** Runs `script` with `data` on its stdin; with `onChunk`, stdout goes there as it arrives. */
  run(script: string, data: Uint8Array | undefined, onChunk?: (chunk: Buffer) => void): Promise<RunResult> {
    if (this.dead || this.request) return Promise.reject(new Error("resident shell not available"));
    return new Promise<RunResult>((resolve, reject) => {
      this.process.hold(true);
      const done = () => this.process.hold(false);
      this.request = {
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
        chunks: [],
        onChunk,
      };
      const text = Buffer.from(script, "utf8");
      this.process.write(Buffer.from(`${text.length} ${data?.length ?? 0}\n`, "latin1"));
      this.process.write(text);
      if (data && data.length > 0) this.process.write(data);
    });
  }

  /**
   * The reader of a streamed request left early: the rest of its output is dropped as it comes,
   * so the shell can finish the request and be used again.
   */
  abandon(): void {
    const request = this.request;
    if (request) request.onChunk = () => {};
    this.queued = 0;
    for (const wake of this.drained.splice(0)) wake();
  }

  /** The reader took `bytes` of streamed output: reading resumes below the high-water mark. */
  consumed(bytes: number): void {
    this.queued -= bytes;
    if (this.queued <= HIGH_WATER_BYTES) for (const wake of this.drained.splice(0)) wake();
  }

  /** Ends the shell (its connection closes; the shell exits at its next read). */
  close(): void {
    this.dead = true;
    this.process.detach();
    for (const wake of this.drained.splice(0)) wake();
  }

  /** Waits (bounded) until the shell's exec ended. */
  async settled(ms: number): Promise<void> {
    await settleWithin(this.process.ended, ms);
  }

  private async pump(): Promise<void> {
    let failure: unknown;
    try {
      for await (const frame of this.process.frames) {
        if (frame.stream === "stdout") this.accept(Buffer.from(frame.bytes));
        while (this.queued > HIGH_WATER_BYTES && !this.dead)
          await new Promise<void>((resolve) => this.drained.push(resolve));
      }
    } catch (error) {
      failure = error;
    }
    this.dead = true;
    const request = this.request;
    this.request = undefined;
    request?.reject(failure ?? new Error("the resident shell's exec stream closed"));
  }

  /** Takes stdout bytes; completes the request when its end line arrived whole. */
  private accept(bytes: Buffer): void {
    let buffer = this.carry.length > 0 ? Buffer.concat([this.carry, bytes]) : bytes;
    for (;;) {
      const request = this.request;
      const at = buffer.indexOf(this.marker);
      const newline = at === -1 ? -1 : buffer.indexOf(0x0a, at + this.marker.length);
      if (newline === -1) {
        // Keep what may be the start of the end line; the rest is output.
        const keep = at !== -1 ? buffer.length - at : Math.min(buffer.length, this.marker.length + 8);
        if (request) this.output(request, buffer.subarray(0, buffer.length - keep));
        this.carry = Buffer.from(buffer.subarray(buffer.length - keep));
        return;
      }
      const status = Number(buffer.subarray(at + this.marker.length, newline).toString("latin1"));
      if (request) {
        this.output(request, buffer.subarray(0, at));
        this.request = undefined;
        request.resolve({ exitCode: status, stdout: Buffer.concat(request.chunks), stderr: Buffer.alloc(0) });
      }
      buffer = buffer.subarray(newline + 1);
      this.carry = Buffer.alloc(0);
      if (buffer.length === 0) return;
    }
  }

  private output(request: Request, bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (request.onChunk) {
      this.queued += bytes.length;
      request.onChunk(Buffer.from(bytes));
    } else request.chunks.push(Buffer.from(bytes));
  }
}

/**
 * Up to {@link MAX_RESIDENT_SHELLS} resident shells: a call takes an idle one (starting one when
 * all are busy), so parallel calls do not queue behind a long read. An aborted or abandoned call
 * closes its shell instead of reusing it.
 */
export class ResidentShellPool {
  private readonly idle: ResidentShell[] = [];
  private count = 0;
  private readonly waiting: ((shell: ResidentShell | undefined) => void)[] = [];
  private closed = false;

  constructor(private readonly client: PodClient) {}

  /** Runs `script` (arguments already quoted in) with `data` as its stdin. */
  async run(
    script: string,
    options: { data?: Uint8Array; signal?: AbortSignal | undefined; operation: string; path?: string },
  ): Promise<RunResult> {
    const shell = await this.acquire(options.operation, options.path);
    const { signal } = options;
    let onAbort: (() => void) | undefined;
    try {
      const result = shell.run(script, options.data);
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
        throw aborted(options.operation, options.path, signal.reason);
      }
      throw error;
    } finally {
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      this.release(shell);
    }
  }

  /** Runs `script` and yields its stdout as it arrives; returns the exit status. */
  async *stream(
    script: string,
    options: { signal?: AbortSignal | undefined; operation: string; path?: string },
  ): AsyncGenerator<Uint8Array, number> {
    const shell = await this.acquire(options.operation, options.path);
    const { signal } = options;
    const queue: Buffer[] = [];
    let wake: (() => void) | undefined;
    let outcome: { status: number } | { error: unknown } | undefined;
    const onAbort = () => wake?.();
    signal?.addEventListener("abort", onAbort, { once: true });
    const request = shell.run(script, undefined, (chunk) => {
      queue.push(chunk);
      wake?.();
    });
    request
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
        if (signal?.aborted) throw aborted(options.operation, options.path, signal.reason);
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
      if (finished || outcome) this.release(shell);
      else {
        // Left early: let the request finish (its output dropped) and reuse the shell, or
        // close it when the request runs on.
        shell.abandon();
        const timer = setTimeout(() => shell.close(), ABANDONED_REQUEST_MS);
        timer.unref();
        void request.then(
          () => {
            clearTimeout(timer);
            this.release(shell);
          },
          () => {
            clearTimeout(timer);
            this.release(shell);
          },
        );
      }
    }
  }

  /** Starts shells in the background until `count` exist (a cold call waits for an exec start). */
  warm(count = MAX_RESIDENT_SHELLS): void {
    while (!this.closed && this.count < Math.min(count, MAX_RESIDENT_SHELLS)) {
      this.count++;
      ResidentShell.start(this.client).then(
        (shell) => this.release(shell),
        () => {
          this.count--;
        },
      );
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
      if (this.count < MAX_RESIDENT_SHELLS) {
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
      this.waiting.shift()?.(undefined);
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter(shell);
    else this.idle.push(shell);
  }
}

function aborted(operation: string, path: string | undefined, cause: unknown): OperationError {
  return new OperationError("aborted", `${operation} aborted`, {
    operation,
    cause,
    ...(path ? { path } : {}),
  });
}
