import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import type { SpawnedProcess } from "./spawner.js";

/** Bytes a relayed pipe buffers in the host before the helper is asked to pause the process. */
const RELAY_HIGH_WATER_BYTES = 256 * 1024;

/** A request to the helper about one process. */
export type ProcessRequest =
  | { op: "kill"; signal: NodeJS.Signals }
  | { op: "pause" | "resume" | "release" }
  | { op: "drop"; fd: number };

/**
 * A process the spawn helper started, seen from the host: its output arrives as frames and is
 * pushed into `stdout`/`stderr` in the order the helper read it. A pipe whose reader falls
 * behind (its buffer above {@link RELAY_HIGH_WATER_BYTES}) pauses the process's pipes in the
 * helper until it is read again, so the host holds a bounded amount, as with a direct pipe.
 */
export class RemoteProcess extends EventEmitter implements SpawnedProcess {
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** The helper went away before this process's exit was known. */
  lost = false;
  readonly drainsItself: boolean;
  private readonly pipes = new Map<number, Readable>();
  /** Pipes whose buffer is full; the helper is paused while any is. */
  private readonly full = new Set<number>();
  private exited = false;
  private closed = false;

  constructor(
    /** The helper's number for this process. */
    readonly id: number,
    readonly pid: number,
    readonly detached: boolean,
    pipeFds: readonly number[],
    private readonly request: (request: ProcessRequest) => void,
    drainsItself = false,
  ) {
    super();
    this.drainsItself = drainsItself;
    for (const fd of pipeFds) {
      const pipe = new Readable({
        highWaterMark: RELAY_HIGH_WATER_BYTES,
        read: () => this.wantMore(fd),
        destroy: (error, callback) => {
          // Stop reading in the helper too (a background child may hold the pipe for ever).
          if (!this.closed && !pipe.readableEnded) this.request({ op: "drop", fd });
          this.wantMore(fd);
          callback(error);
        },
      });
      this.pipes.set(fd, pipe);
    }
    this.stdout = this.pipes.get(1) ?? null;
    this.stderr = this.pipes.get(2) ?? null;
  }

  /** As `EventEmitter.once`; `exit` and `close` also reach a listener added after they happened. */
  override once(event: string | symbol, listener: (...args: never[]) => void): this {
    const call = listener as (...args: unknown[]) => void;
    if ((event === "exit" && this.exited) || (event === "close" && this.closed)) {
      queueMicrotask(() => call(this.exitCode, this.signalCode));
      return this;
    }
    return super.once(event, call);
  }

  /** Asks the helper to send `signal`; false once the process is known to have exited. */
  kill(signal: NodeJS.Signals = "SIGTERM"): boolean {
    if (this.exited) return false;
    this.request({ op: "kill", signal });
    return true;
  }

  /** Output read by the helper from descriptor `fd`. */
  data(fd: number, bytes: Buffer): void {
    const pipe = this.pipes.get(fd);
    if (!pipe || pipe.destroyed) return;
    if (!pipe.push(bytes) && !this.full.has(fd)) {
      this.full.add(fd);
      if (this.full.size === 1) this.request({ op: "pause" });
    }
  }

  /** Descriptor `fd` reached its end in the helper. */
  end(fd: number): void {
    const pipe = this.pipes.get(fd);
    if (pipe && !pipe.destroyed && !pipe.readableEnded) pipe.push(null);
    this.wantMore(fd);
  }

  exit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exited) return;
    this.exited = true;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit("exit", code, signal);
  }

  /** The helper sent everything about this process. */
  close(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.closed) return;
    this.closed = true;
    for (const fd of this.pipes.keys()) this.end(fd);
    this.emit("close", code, signal);
  }

  /**
   * The helper is gone: the pipes end with what arrived, the exit is reported without a code.
   * A process outside a group of its own is killed here (it ran in the helper's group); a group
   * leader's whole tree is ended by the command's own cleanup, which finds it by group and marker.
   */
  lose(): void {
    if (this.closed) return;
    this.lost = true;
    if (!this.exited && !this.detached) {
      try {
        process.kill(this.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    this.exit(null, null);
    this.close(null, null);
  }

  private wantMore(fd: number): void {
    if (!this.full.delete(fd) || this.full.size > 0 || this.closed) return;
    this.request({ op: "resume" });
  }
}
