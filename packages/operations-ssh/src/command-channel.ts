import {
  type ExecCleanup,
  type ExecOptions,
  type ExecResult,
  type ExecStatus,
  OperationError,
  type OperationErrorCode,
  type OutputChunk,
  type SandboxOptions,
  type SandboxReport,
} from "@tackle/operations";
import { MAX_DRAIN_AFTER_EXIT_MS } from "@tackle/operations/adapter";
import type { ClientChannel } from "ssh2";
import type { Session } from "./connection.js";
import { buildCopierKillCommand, buildKillCommand, CONTROL_PREFIX, type KillStep } from "./exec-script.js";
import { runRemote } from "./remote-command.js";

/** Adapter-wide exec settings. */
export interface SshExecConfig {
  killGraceMs: number;
  idleGraceMs: number;
  /** Sandbox of every command that does not say otherwise (`ExecOptions.sandbox`). */
  sandbox?: SandboxOptions;
}

/**
 * Pid and process group of a sandboxed command's shell as it sees them: bubblewrap's init is 1 in
 * the sandbox's pid namespace, the shell (under `setsid`) is 2.
 */
const SANDBOX_SHELL_PID = 2;

/** How long a stop waits for the wrapper to report the process group before giving up on it. */
const PGID_WAIT_MS = 2000;
/**
 * How long to wait for the command's channel to close once its group was killed (or swept after
 * its exit): its last holders then are copies of the output (tees, capper) with no writer left.
 * Past it the copies are ended (a writer out of reach holds them, or they are stuck).
 */
const CLOSE_AFTER_KILL_MS = 2000;

const START_ERRORS: Record<string, [OperationErrorCode, string]> = {
  nocwd: ["not_found", "cwd does not exist"],
  notdir: ["not_directory", "cwd is not a directory"],
  denied: ["permission_denied", "cwd is not accessible"],
  noshell: ["not_supported", "the shell is not installed on the remote host"],
  nolimit: ["not_supported", "the remote host cannot limit the output (dd, mkfifo)"],
};

/** A command's result before the caller adds the time it took. */
export type Outcome = Omit<ExecResult, "elapsedMs">;

/** One remote command from its open channel to a settled result. */
export class RemoteCommand {
  readonly finished: Promise<Outcome>;
  private seq = 0;
  private stdoutBytes = 0;
  private stderrBytes = 0;
  private control = Buffer.alloc(0);
  private controlDone = false;
  private pgid: number | undefined;
  /** The wrapper said the output copiers share the command's group (a host without setsid). */
  private copiersInGroup = false;
  private startError: string | undefined;
  private exit: { code: number | null; signal: string | undefined } | undefined;
  private closed = false;
  private lastOutputAt = Date.now();
  private stopReason: "timed-out" | "cancelled" | undefined;
  private stopping: Promise<ExecCleanup> | undefined;
  private stopDone = false;
  /** Set when the output copies still held the channel open after the sweep (see `run`). */
  private copiesUnfinished = false;
  private readonly unsubscribeLost: () => void;
  private readonly events = new EventTarget();

  constructor(
    private readonly session: Session,
    private readonly channel: ClientChannel,
    private readonly options: ExecOptions,
    private readonly config: SshExecConfig,
    /** The command's `TACKLE_EXEC_ID` value, which finds processes that left its group. */
    private readonly marker: string,
    /** How the command is sandboxed (bubblewrap on the remote host), if it is. */
    private readonly sandbox?: SandboxReport,
  ) {
    channel.on("data", (bytes: Buffer) => this.onOutput("stdout", bytes));
    channel.stderr.on("data", (bytes: Buffer) => this.onStderr(bytes));
    channel.on("exit", (code: number | null, signal?: string) => {
      this.exit = { code, signal: signal === undefined ? undefined : signalName(signal) };
      this.poke();
    });
    channel.on("close", () => {
      this.closed = true;
      this.poke();
    });
    this.unsubscribeLost = session.onLost(() => this.poke());
    // stdin stays open and silent while the command runs: the remote watchdog reads it, and its
    // end without the command's end means the connection died (see the wrapper's WATCHDOG).
    this.finished = this.run();
  }

  private poke(): void {
    this.events.dispatchEvent(new Event("change"));
  }

  /** Resolves on the next event (output, control line, exit, close, loss) or after `ms`. */
  private nextEvent(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.events.addEventListener("change", done, { once: true });
    });
  }

  private onStderr(bytes: Buffer): void {
    if (this.controlDone) {
      this.onOutput("stderr", bytes);
      return;
    }
    this.control = Buffer.concat([this.control, bytes]);
    const at = this.control.indexOf(CONTROL_PREFIX);
    if (at < 0) {
      // Whatever the login shell printed before the wrapper ran (a noisy profile): pass complete lines.
      const lastNewline = this.control.lastIndexOf(10);
      if (lastNewline >= 0) {
        this.onOutput("stderr", this.control.subarray(0, lastNewline + 1));
        this.control = this.control.subarray(lastNewline + 1);
      }
      return;
    }
    const end = this.control.indexOf(10, at);
    if (end < 0) return;
    if (at > 0) this.onOutput("stderr", this.control.subarray(0, at));
    const line = this.control.subarray(at + CONTROL_PREFIX.length, end).toString("latin1");
    const rest = this.control.subarray(end + 1);
    this.controlDone = true;
    this.control = Buffer.alloc(0);
    if (line.startsWith("pg=")) {
      const [pgid = "", copiers] = line.slice(3).split(":");
      this.pgid = Number(pgid);
      this.copiersInGroup = copiers === "copiers";
      // The wrapper execs the command, so its pid is the group's id and the command's own. A
      // sandboxed command reports the ids it sees itself; the group (bwrap's) is the host pid.
      try {
        this.options.onSpawn?.(
          this.sandbox
            ? {
                pid: SANDBOX_SHELL_PID,
                pgid: SANDBOX_SHELL_PID,
                sandbox: { ...this.sandbox, hostPid: this.pgid },
              }
            : { pid: this.pgid, pgid: this.pgid },
        );
      } catch {
        // onSpawn must not throw; a faulty consumer must not leave the remote command unmanaged.
      }
    } else this.startError = line;
    this.poke();
    if (rest.length > 0) this.onOutput("stderr", rest);
  }

  private onOutput(stream: OutputChunk["stream"], bytes: Buffer): void {
    this.lastOutputAt = Date.now();
    if (stream === "stdout") this.stdoutBytes += bytes.length;
    else this.stderrBytes += bytes.length;
    if (this.options.onChunk && this.options.streamChunks !== false) {
      try {
        this.options.onChunk({ seq: this.seq++, stream, bytes: new Uint8Array(bytes) });
      } catch {
        // onChunk must not throw; a faulty consumer must not leave the remote command unmanaged.
      }
    }
    this.poke();
  }

  private stop(reason: "timed-out" | "cancelled"): void {
    if (this.stopReason || this.exit || this.session.isLost) return;
    this.stopReason = reason;
    this.stopping = this.endGroup().finally(() => {
      this.stopDone = true;
      this.poke();
    });
  }

  /** Kills the group once its id is known (it arrives first thing on stderr). */
  private async endGroup(): Promise<ExecCleanup> {
    // A login shell stuck in its profile never reaches the wrapper: wait a bounded time only.
    const deadline = Date.now() + Math.max(this.options.killGraceMs ?? this.config.killGraceMs, PGID_WAIT_MS);
    while (
      this.pgid === undefined &&
      !this.exit &&
      !this.closed &&
      !this.session.isLost &&
      !this.startError &&
      Date.now() < deadline
    ) {
      await this.nextEvent(deadline - Date.now());
    }
    if (this.pgid === undefined) {
      const ended = this.exit !== undefined || this.closed;
      return {
        termSent: false,
        killSent: false,
        confirmed: ended,
        ...(ended
          ? {}
          : {
              note: "the remote shell never started the command wrapper; closing the channel may not stop it",
            }),
      };
    }
    return killGroup(
      this.session,
      this.pgid,
      this.options.killGraceMs ?? this.config.killGraceMs,
      this.marker,
      this.copiersInGroup,
    );
  }

  private async run(): Promise<Outcome> {
    const { signal, timeoutMs } = this.options;
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.stop("timed-out"), timeoutMs);
    const onAbort = () => this.stop("cancelled");
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) onAbort();
    try {
      // Also leave when a kill sequence ended without the channel reporting an exit (a process in
      // uninterruptible sleep): the result then says `unknown` instead of waiting forever.
      while (!this.exit && !this.closed && !this.session.isLost && !this.stopDone) await this.nextEvent();
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (!this.controlDone && !this.stopping) await this.drain();
      if (this.startError !== undefined && !this.stopReason) throw this.startFailure(this.startError);
      // With `outputPath` and chunks, or with an output limit, remote copiers (tees, capper) hold
      // the channel until they have copied everything into the file (and back here); they end
      // once no writer is left. A pause in the output says nothing about them (a loaded host, a
      // slow file): closing now would cut the tees off (SIGPIPE). So the channel stays open
      // through the sweep (or the stop), which ends the writers the command left behind (the
      // copiers are not among them), and its close then says the copiers are done. Otherwise it
      // is closed before the sweep so a command never holds two of the server's sessions at once
      // (the sweep takes a helper slot, kept for it either way).
      const copying =
        this.options.outputPath !== undefined &&
        (this.options.streamChunks !== false || this.options.outputLimitBytes !== undefined) &&
        this.pgid !== undefined;
      if (this.stopping) {
        const cleanup = await this.stopping;
        // Killed for sure: the channel closes once the copiers are done (at once without them)
        // and may still carry the exit signal.
        if (cleanup.confirmed) await (copying ? this.waitForCopies() : this.waitClosed(CLOSE_AFTER_KILL_MS));
        return this.outcome(cleanup);
      }
      if (this.session.isLost && !this.exit) return this.outcome(undefined);
      await this.drain();
      if (!this.closed && !(copying && !this.session.isLost)) this.channel.close();
      // Anything the command left in its group (a `cmd &` child) is ended too: nothing outlives
      // the call, as with the local adapter.
      const cleanup: ExecCleanup =
        this.pgid === undefined
          ? { termSent: false, killSent: false, confirmed: true }
          : this.session.isLost
            ? {
                termSent: false,
                killSent: false,
                confirmed: false,
                note: `the command exited, then the SSH connection was lost: processes it left in group ${this.pgid} could not be checked`,
              }
            : await killGroup(
                this.session,
                this.pgid,
                this.options.killGraceMs ?? this.config.killGraceMs,
                this.marker,
                this.copiersInGroup,
              );
      if (copying && !this.session.isLost) await this.waitForCopies();
      return this.outcome(cleanup);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (!this.closed) this.channel.close();
      this.unsubscribeLost();
    }
  }

  /** After exit: keep reading until the channel closes or output was idle for the grace. */
  private async drain(): Promise<void> {
    const exitAt = Date.now();
    while (!this.closed && !this.session.isLost) {
      const idleFor = Date.now() - Math.max(this.lastOutputAt, exitAt);
      const remaining = Math.min(
        this.config.idleGraceMs - idleFor,
        exitAt + MAX_DRAIN_AFTER_EXIT_MS - Date.now(),
      );
      if (remaining <= 0) break;
      await this.nextEvent(remaining);
    }
  }

  /**
   * Once the command's processes are gone: waits for the channel's close, i.e. for the output
   * copiers (tees, capper) to finish, at most `CLOSE_AFTER_KILL_MS`. Bounded: a writer out of the sweep's
   * reach (one that cleared its environment) keeps them open for as long as it runs, and a copy
   * can be stuck. Past the bound they are ended (by their copy marker), so that they neither
   * write to the file after the call nor race the assembly of a capped output, and the result
   * says so.
   */
  private async waitForCopies(): Promise<void> {
    await this.waitClosed(CLOSE_AFTER_KILL_MS);
    if (this.closed || this.session.isLost) return;
    this.copiesUnfinished = true;
    try {
      await runRemote(this.session, buildCopierKillCommand(this.marker));
    } catch {
      // The note below says later output is missing either way.
    }
  }

  private async waitClosed(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.closed && !this.session.isLost && Date.now() < deadline)
      await this.nextEvent(deadline - Date.now());
  }

  private startFailure(what: string): OperationError {
    const [code, text] = START_ERRORS[what] ?? ["unknown", `remote wrapper failed (${what})`];
    return new OperationError(
      code,
      `exec: ${text}: ${code === "not_supported" ? this.options.shell : this.options.cwd}`,
      {
        operation: "exec",
        ...(code === "not_supported" ? {} : { path: this.options.cwd }),
      },
    );
  }

  private outcome(cleanup: ExecCleanup | undefined): Outcome {
    const exitCode = this.exit?.code ?? undefined;
    const exitSignal = this.exit?.signal;
    let status: ExecStatus = this.stopReason ?? (exitCode === 0 ? "completed" : "failed");
    const report: ExecCleanup = cleanup ?? { termSent: false, killSent: false, confirmed: false };
    if (this.pgid !== undefined) report.pid = this.sandbox ? SANDBOX_SHELL_PID : this.pgid;
    if (!cleanup) {
      status = "unknown";
      report.note = `SSH connection lost before the command's end was observed; process group ${this.pgid ?? "(unknown)"} may still run on the remote host`;
    } else if (!cleanup.confirmed) {
      status = "unknown";
      report.note ??= `processes of group ${this.pgid} may still be running on the remote host`;
    } else if (!this.stopReason && cleanup.termSent) {
      report.note = "background processes left by the command were ended";
    }
    if (this.copiesUnfinished) {
      const open = `the output copies to ${this.options.outputPath} were still open ${CLOSE_AFTER_KILL_MS} ms after the command's processes ended (a process out of reach holds them, or they are stuck) and were ended: later output is missing`;
      report.note = report.note === undefined ? open : `${report.note}; ${open}`;
    }
    return {
      status,
      ...(exitCode !== undefined && exitCode !== null ? { exitCode } : {}),
      ...(exitSignal !== undefined ? { signal: exitSignal } : {}),
      stdoutBytes: this.stdoutBytes,
      stderrBytes: this.stderrBytes,
      cleanup: report,
      ...(this.sandbox
        ? { sandbox: { ...this.sandbox, ...(this.pgid !== undefined ? { hostPid: this.pgid } : {}) } }
        : {}),
    };
  }
}

/**
 * Runs the kill script for `pgid` (and for processes that left it carrying `marker`) on its own
 * channel and reports which steps it confirmed.
 */
async function killGroup(
  session: Session,
  pgid: number,
  graceMs: number,
  marker: string,
  copiersInGroup: boolean,
): Promise<ExecCleanup> {
  try {
    const result = await runRemote(session, buildKillCommand(pgid, graceMs, marker, copiersInGroup));
    const steps = new Set(result.stdout.split("\n").filter(Boolean) as KillStep[]);
    const escapesChecked = steps.has("esc-none") || steps.has("esc-gone") || steps.has("esc-alive");
    const groupGone = steps.has("gone") || steps.has("confirmed");
    return {
      termSent: steps.has("term") || steps.has("esc-term"),
      killSent: steps.has("kill") || steps.has("esc-kill"),
      confirmed: groupGone && !steps.has("esc-alive"),
      ...(escapesChecked ? { escapesChecked: true } : {}),
      pid: pgid,
      ...(steps.has("esc-alive")
        ? { note: "a process that left the command's process group survived SIGKILL" }
        : {}),
    };
  } catch (error) {
    return {
      termSent: false,
      killSent: false,
      confirmed: false,
      pid: pgid,
      note: `could not reach the remote host to end process group ${pgid} (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** ssh2 reports exit signals as OpenSSH sends them ("TERM"); the contract uses Node's names ("SIGTERM"). */
function signalName(signal: string): string {
  return signal.startsWith("SIG") ? signal : `SIG${signal}`;
}
