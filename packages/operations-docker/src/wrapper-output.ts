import type { ExecSpawn, OperationErrorCode, OutputChunk } from "@tackle/operations";
import type { StreamFrame } from "./demux.js";

const START_PREFIX = "\0tackle:";

/**
 * What the wrapper's sweep did about processes that left the command's group but carry its
 * `TACKLE_EXEC_ID` marker: none found, ended by TERM, ended by KILL, or some survived KILL.
 */
export type EscapeSweep = "none" | "terminated" | "killed" | "survived";

const ESCAPE_SWEEPS: Record<string, EscapeSweep> = {
  "0": "none",
  "1": "terminated",
  "2": "killed",
  "3": "survived",
};

/**
 * Reads the exec stream of the command wrapper (`WRAPPER_SCRIPT`): takes its start marker off
 * the front of stderr and its end marker off the back, and hands everything in between to the
 * caller as sequenced chunks, counting bytes per stream.
 *
 * - Start: `\0tackle:ok\n`, or `\0tackle:err:<code>\n` when the command could not start. It is
 *   always the first stderr bytes (nothing else runs yet), possibly split across frames.
 * - End: `\0tackle:end:<token>:<count>:<status>:<escapes>:<dropped>:<cut>\n`, the wrapper's last write, one atomic pipe
 *   write, so inside one frame. `token` is random per command, so output that happens to contain
 *   a marker is not mistaken for it.
 */
export class WrapperOutput {
  stdoutBytes = 0;
  stderrBytes = 0;
  /** The start marker has been read (the command runs, or `setupError` says why not). */
  startSeen = false;
  /** Why the wrapper could not start the command. */
  setupError: OperationErrorCode | undefined;
  /**
   * The end marker's fields, once seen (the wrapper ended by itself): bytes appended to the
   * output file, the command's exit status (the wrapper's exit code), what the sweep for
   * processes that left the group found (`undefined`: it could not look), the bytes the
   * output budget dropped between head and tail (0 for none), and whether an output copier
   * (relay, capper) was still open at the end of the wrapper's wait for it and was ended.
   */
  ended:
    | {
        appended: number;
        status: number;
        escapes: EscapeSweep | undefined;
        dropped: number;
        copiesCut: boolean;
      }
    | undefined;
  /** Settles when the command has started, or when it is known it never will. */
  readonly started: Promise<void>;

  private markStarted!: () => void;
  private startText = "";
  private seq = 0;
  private readonly endMarker: Buffer;
  private readonly pidMarker: Buffer;
  private pidSeen = false;

  /** `onSpawn`: the wrapper reported the pid of the command it started (its group's id). */
  constructor(
    token: string,
    private readonly onChunk: ((chunk: OutputChunk) => void) | undefined,
    private readonly onSpawn?: (spawn: ExecSpawn) => void,
  ) {
    this.endMarker = Buffer.from(`\0tackle:end:${token}:`, "latin1");
    this.pidMarker = Buffer.from(`\0tackle:pid:${token}:`, "latin1");
    this.started = new Promise<void>((resolve) => {
      this.markStarted = resolve;
    });
  }

  /** Takes one frame of the exec stream. */
  accept(frame: StreamFrame): void {
    if (frame.stream === "stdout" || this.startSeen) {
      this.deliver(frame.stream, frame.bytes);
      return;
    }
    const text = Buffer.from(frame.bytes).toString("latin1");
    const newline = text.indexOf("\n");
    this.startText += newline === -1 ? text : text.slice(0, newline);
    if (newline === -1) return;
    this.startSeen = true;
    const status = this.startText.startsWith(START_PREFIX) ? this.startText.slice(START_PREFIX.length) : "";
    if (status.startsWith("err:")) this.setupError = status.slice(4) as OperationErrorCode;
    else this.markStarted();
    this.deliver("stderr", frame.bytes.subarray(newline + 1));
  }

  /** The stream is over: a stop still waiting for the start must not wait forever. */
  finish(): void {
    this.markStarted();
  }

  /** Takes the wrapper's pid line out of `bytes` (one short write, so inside one frame) and reports it. */
  private takePid(bytes: Uint8Array): Uint8Array {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = view.indexOf(this.pidMarker);
    if (at === -1) return bytes;
    const end = view.indexOf(10, at);
    if (end === -1) return bytes;
    const pid = Number(view.subarray(at + this.pidMarker.length, end).toString("latin1"));
    this.pidSeen = true;
    try {
      if (Number.isInteger(pid) && pid > 0) this.onSpawn?.({ pid, pgid: pid });
    } catch {
      // onSpawn must not throw; a faulty consumer must not leave the command unmanaged.
    }
    return Buffer.concat([view.subarray(0, at), view.subarray(end + 1)]);
  }

  private deliver(stream: "stdout" | "stderr", bytes: Uint8Array): void {
    if (stream === "stderr" && !this.pidSeen) bytes = this.takePid(bytes);
    if (stream === "stderr" && this.ended === undefined) {
      const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(this.endMarker);
      if (at !== -1) {
        const rest = Buffer.from(bytes.subarray(at + this.endMarker.length)).toString("latin1");
        const [appended = "", status = "", escapes = "", dropped = "", cut = ""] = rest
          .slice(0, Math.max(0, rest.indexOf("\n")))
          .split(":");
        this.ended = {
          appended: Number(appended) || 0,
          status: Number(status),
          escapes: ESCAPE_SWEEPS[escapes],
          dropped: Number(dropped) || 0,
          copiesCut: cut === "1",
        };
        bytes = bytes.subarray(0, at);
      }
    }
    if (bytes.length === 0) return;
    if (stream === "stdout") this.stdoutBytes += bytes.length;
    else this.stderrBytes += bytes.length;
    this.onChunk?.({ seq: this.seq++, stream, bytes });
  }
}
