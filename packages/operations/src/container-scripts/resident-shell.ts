import { randomBytes } from "node:crypto";
import { settleWithin } from "../adapter/exec-defaults.js";
import { shellText } from "./shell-text.js";

/**
 * The loop of a resident shell, `sh -c RESIDENT_SHELL_LOOP sh BOUNDARY` with stdin open: each
 * request is a header line `<script bytes> <data bytes>`, the script, then the data. The script
 * runs in a subshell with exactly the data on its stdin (`dd` with `count_bytes,fullblock` reads
 * exactly that many: busybox `head -c` reads through stdio and would swallow the next request;
 * what the script leaves unread is drained, so the next header is where it belongs) and its
 * stderr discarded; then the loop prints `\n<BOUNDARY>:<status>\n`. When the exec stream goes
 * away stdin closes: `read` fails and the shell exits.
 */
export const RESIDENT_SHELL_LOOP = shellText`
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

/** A script's stdout and exit status, as a resident shell returns them (stderr is discarded). */
export interface ResidentRunResult {
  exitCode: number;
  stdout: Buffer;
  stderr: Buffer;
}

/**
 * A process in the container with stdin open, as the adapter's transport gives it: a Docker
 * attach stream, a Kubernetes exec websocket.
 */
export interface ShellProcess {
  /** Output in arrival order (only `stdout` frames are read); ends when the stream closes. */
  readonly frames: AsyncIterable<{ stream: string; bytes: Uint8Array }>;
  /** Sends bytes to the process's stdin. */
  write(bytes: Uint8Array): void;
  /**
   * Whether the open stream keeps Node's event loop alive: an idle shell must not (a host that
   * never disposes would hang at exit), a request in flight must.
   */
  hold(busy: boolean): void;
  /** Closes the stream: the shell sees its stdin end and exits at its next read. */
  detach(): void;
  /** Settles once the process has ended (never rejects into the void: it is awaited bounded). */
  ended(): Promise<unknown>;
}

/** What a resident shell pool needs from its adapter. */
export interface ResidentShellHost {
  /** Starts `argv` in the container with stdin open. */
  start(argv: string[]): Promise<ShellProcess>;
  /** The adapter's typed error for a shell that could not be started. */
  fail(error: unknown, operation: string, path: string | undefined): Error;
  /**
   * Checked every `watchdogMs` while a request is pending: an error it returns fails the request
   * and retires the shell (a paused container freezes the shell without ending its stream).
   */
  watchdog?: { everyMs: number; check(): Promise<Error | undefined> };
}

interface Request {
  resolve(result: ResidentRunResult): void;
  reject(error: unknown): void;
  chunks: Buffer[];
  /** Streaming request: output goes here as it arrives instead of into `chunks`. */
  onChunk: ((chunk: Buffer) => void) | undefined;
}

/**
 * One long-lived `sh` in the container running scripts on request: a call costs a write and a
 * read on an open stream instead of a new exec (a process start by the container runtime, and for
 * Kubernetes a websocket handshake through the API server). One request at a time.
 */
export class ResidentShell {
  private readonly marker: Buffer;
  private request: Request | undefined;
  /** Bytes after the last complete response that may hold the start of the end line. */
  private carry: Buffer = Buffer.alloc(0);
  /** Streamed bytes handed out and not yet consumed, and who waits for them to drain. */
  private queued = 0;
  private readonly drained: (() => void)[] = [];
  dead = false;

  private constructor(
    private readonly host: ResidentShellHost,
    private readonly process: ShellProcess,
    boundary: string,
  ) {
    this.marker = Buffer.from(`\n${boundary}:`, "latin1");
    process.hold(false);
    void this.pump();
  }

  static async start(host: ResidentShellHost): Promise<ResidentShell> {
    const boundary = randomBytes(16).toString("hex");
    const process = await host.start(["sh", "-c", RESIDENT_SHELL_LOOP, "sh", boundary]);
    return new ResidentShell(host, process, boundary);
  }

  /**
   * Runs `script` with `data` on its stdin; resolves with its stdout and exit status. With
   * `onChunk`, stdout goes there as it arrives (and is not in the result); the reader reports
   * what it took with {@link consumed} so a slow reader pauses the stream.
   */
  run(
    script: string,
    data: Uint8Array | undefined,
    onChunk?: (chunk: Buffer) => void,
  ): Promise<ResidentRunResult> {
    if (this.dead || this.request) return Promise.reject(new Error("resident shell not available"));
    return new Promise<ResidentRunResult>((resolve, reject) => {
      this.process.hold(true);
      const watchdog = this.host.watchdog;
      const timer = watchdog
        ? setInterval(() => void this.watch(watchdog.check), watchdog.everyMs)
        : undefined;
      timer?.unref();
      const done = () => {
        if (timer) clearInterval(timer);
        this.process.hold(false);
      };
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

  private async watch(check: () => Promise<Error | undefined>): Promise<void> {
    let failure: Error | undefined;
    try {
      failure = await check();
    } catch {
      return; // The check itself failed (the engine unreachable): the stream breaking will say so.
    }
    const request = this.request;
    if (!failure || !request) return;
    this.request = undefined;
    this.close();
    request.reject(failure);
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

  /** Ends the shell: it exits at its next read. A request in flight is rejected by the caller. */
  close(): void {
    this.dead = true;
    this.process.detach();
    for (const wake of this.drained.splice(0)) wake();
  }

  /** Waits (bounded) until the shell's process ended, e.g. after an aborted write. */
  async settled(ms: number): Promise<void> {
    await settleWithin(this.process.ended(), ms);
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
    request?.reject(failure ?? new Error("the resident shell's stream closed"));
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
    // Copied: the carry buffer behind `bytes` is reused.
    if (request.onChunk) {
      this.queued += bytes.length;
      request.onChunk(Buffer.from(bytes));
    } else request.chunks.push(Buffer.from(bytes));
  }
}
