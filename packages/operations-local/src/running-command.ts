import type { Readable } from "node:stream";
import type { ExecOptions, ExecResult, ExecStatus, OutputChunk } from "@tackle/operations";
import { MAX_DRAIN_AFTER_EXIT_MS } from "@tackle/operations/adapter";
import type { OutputFile } from "./output-file.js";
import { type CommandTree, endTree, type TreeKillReport } from "./process-tree.js";
import type { SpawnedProcess } from "./spawner/spawner.js";

/** Largest delay setTimeout honours. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a run settles to; `exec` adds the elapsed time and the output counts. */
export type RunOutcome = Omit<ExecResult, "elapsedMs">;

type StopReason = "timed-out" | "cancelled";

/** Output queued for the file above which the command's pipes are paused. */
const WRITE_HIGH_WATER_BYTES = 1024 * 1024;

/** The adapter-wide grace periods a running command falls back to (see `LocalExecConfig`). */
export interface RunningCommandGraces {
  killGraceMs: number;
  idleGraceMs: number;
}

/** One spawned command from start to settled result. */
export class RunningCommand {
  readonly finished: Promise<RunOutcome>;
  private seq = 0;
  private stdoutBytes = 0;
  private stderrBytes = 0;
  private stopReason: StopReason | undefined;
  private stopping: Promise<TreeKillReport> | undefined;
  private readonly pgid: number;
  private lastOutputAt = Date.now();
  private paused = false;

  constructor(
    private readonly child: SpawnedProcess,
    private readonly tree: CommandTree,
    private readonly options: ExecOptions,
    private readonly config: RunningCommandGraces,
    private readonly sink: OutputFile | undefined,
  ) {
    this.pgid = tree.pgid;
    for (const [stream, name] of [
      [child.stdout, "stdout"],
      [child.stderr, "stderr"],
    ] as const) {
      stream?.on("data", (bytes: Buffer) => this.onData(name, bytes));
    }
    this.finished = this.run();
  }

  private onData(stream: OutputChunk["stream"], bytes: Buffer): void {
    this.noteOutput();
    if (stream === "stdout") this.stdoutBytes += bytes.length;
    else this.stderrBytes += bytes.length;
    if (this.sink) {
      this.sink.write(bytes);
      // Pipes wait while the file falls behind: the host holds at most this much output.
      if (this.sink.pending > WRITE_HIGH_WATER_BYTES && !this.paused) this.pause();
    }
    if (this.options.onChunk && this.options.streamChunks !== false) {
      try {
        const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
        this.options.onChunk({ seq: this.seq++, stream, bytes: view });
      } catch {
        // onChunk must not throw; a faulty consumer must not leave the process unmanaged.
      }
    }
    // Again once handled: a consumer slower than the idle grace must not make the pipe look idle.
    this.noteOutput();
  }

  private noteOutput(): void {
    this.lastOutputAt = Date.now();
  }

  private pause(): void {
    this.paused = true;
    this.child.stdout?.pause();
    this.child.stderr?.pause();
    this.sink?.onDrain(() => {
      this.paused = false;
      this.child.stdout?.resume();
      this.child.stderr?.resume();
    });
  }

  private stop(reason: StopReason): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.stopping = endTree(this.tree, this.options.killGraceMs ?? this.config.killGraceMs);
  }

  private async run(): Promise<RunOutcome> {
    const { signal, timeoutMs } = this.options;
    const grace = this.options.killGraceMs ?? this.config.killGraceMs;
    const stop = (reason: StopReason) => this.stop(reason);
    // setTimeout fires at once above 2^31-1 ms; such a timeout means "practically never".
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => stop("timed-out"), Math.min(timeoutMs, MAX_TIMER_MS));
    const onAbort = () => stop("cancelled");
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      const [exitCode, exitSignal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
        this.child.once("exit", (code, sig) => resolve([code, sig]));
      });
      await this.drainPipes();
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      // Stopped by us: finish that sequence. Otherwise end what the command left behind in its
      // group (a `cmd &` child); the contract is that nothing outlives the call.
      const report = this.stopping ? await this.stopping : await endTree(this.tree, grace);
      return this.outcome(exitCode, exitSignal, report);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Waits for both pipes to end, but no longer than the idle grace after the last output. A
   * spawner that relays the output applies that grace where it reads the pipes and ends them
   * itself (`drainsItself`): here the wait is for that end (a lost helper ends them too).
   */
  private async drainPipes(): Promise<void> {
    const pipes = [this.child.stdout, this.child.stderr].filter((s): s is Readable => s !== null);
    const ended = Promise.all(pipes.map((s) => (s.readableEnded || s.destroyed ? undefined : endOf(s))));
    if (this.child.drainsItself) {
      await ended;
      return;
    }
    const exitAt = Date.now();
    let open = true;
    void ended.then(() => {
      open = false;
    });
    let looked = false;
    while (open) {
      // Paused while the file catches up is not idle: the pipes still hold output.
      if (this.paused) this.lastOutputAt = Date.now();
      const idleFor = Date.now() - Math.max(this.lastOutputAt, exitAt);
      const remaining = Math.min(
        this.config.idleGraceMs - idleFor,
        exitAt + MAX_DRAIN_AFTER_EXIT_MS - Date.now(),
      );
      if (remaining <= 0) {
        if (looked) break;
        // An event loop that was held up runs its timers before it reads: read what is already
        // waiting in the pipes (one turn) before calling them idle.
        looked = true;
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      looked = false;
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, remaining))]);
    }
    // A background child still holds the write end: stop reading so the call can return.
    for (const pipe of pipes) pipe.destroy();
  }

  private outcome(
    exitCode: number | null,
    exitSignal: NodeJS.Signals | null,
    report: TreeKillReport,
  ): RunOutcome {
    let status: ExecStatus = this.stopReason ?? (exitCode === 0 ? "completed" : "failed");
    const cleanup: ExecResult["cleanup"] = {
      ...report,
      // findTree reads the environment marker of every process on Linux (findMarked).
      ...(process.platform === "linux" ? { escapesChecked: true } : {}),
      pid: this.pgid,
    };
    if (!report.confirmed) {
      status = "unknown";
      cleanup.note = `processes of group ${this.pgid} may still be running`;
    } else if (!this.stopReason && report.termSent) {
      cleanup.note = "background processes left by the command were ended";
    }
    return {
      status,
      ...(exitCode !== null ? { exitCode } : {}),
      ...(exitSignal !== null ? { signal: exitSignal } : {}),
      stdoutBytes: this.stdoutBytes,
      stderrBytes: this.stderrBytes,
      cleanup,
    };
  }
}

function endOf(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    stream.once("end", resolve);
    stream.once("close", resolve);
  });
}
