import type { OperationErrorCode } from "../errors.js";
import type { ExecSpawn, OutputChunk } from "../types.js";

/** One piece of an exec stream, as a transport delivers it (demultiplexed). */
export interface WrapperFrame {
  stream: "stdout" | "stderr";
  bytes: Uint8Array;
}

/** What the wrapper's sweep did about processes that left the group but carry the marker. */
export type EscapeSweep = "none" | "terminated" | "killed" | "survived";

const SWEEPS: Record<string, EscapeSweep> = {
  "0": "none",
  "1": "terminated",
  "2": "killed",
  "3": "survived",
};
const START = "\0tackle:";

/** The end line's fields (see `WRAPPER_SCRIPT`). */
export interface WrapperEnd {
  appended: number;
  status: number;
  escapes: EscapeSweep | undefined;
  dropped: number;
  copiesCut: boolean;
}

/**
 * Reads the wrapper's exec stream: its start line off the front of stderr, its pid line and its
 * end line out of stderr, and everything else to the caller as numbered chunks. The start line
 * comes before any other stderr byte (possibly split across frames); the pid and end lines are
 * single short writes, so each lies within one frame. Their random token keeps a command's own
 * output from passing for them.
 */
export class WrapperOutput {
  stdoutBytes = 0;
  stderrBytes = 0;
  /** The start line was read. */
  startSeen = false;
  /** Why the wrapper could not start the command. */
  setupError: OperationErrorCode | undefined;
  /** The end line, once read (the wrapper ended by itself). */
  ended: WrapperEnd | undefined;
  /** Settles when the command started, or when it is known it never will. */
  readonly started: Promise<void>;

  private markStarted!: () => void;
  private head = "";
  private seq = 0;
  private pidSeen = false;
  private readonly endLine: Buffer;
  private readonly pidLine: Buffer;

  constructor(
    token: string,
    private readonly onChunk: ((chunk: OutputChunk) => void) | undefined,
    private readonly onSpawn?: (spawn: ExecSpawn) => void,
  ) {
    this.endLine = Buffer.from(`\0tackle:end:${token}:`, "latin1");
    this.pidLine = Buffer.from(`\0tackle:pid:${token}:`, "latin1");
    this.started = new Promise((resolve) => {
      this.markStarted = resolve;
    });
  }

  /** Takes one frame of the stream. */
  accept(frame: WrapperFrame): void {
    if (frame.stream === "stdout" || this.startSeen) {
      this.deliver(frame.stream, frame.bytes);
      return;
    }
    const text = Buffer.from(frame.bytes).toString("latin1");
    const newline = text.indexOf("\n");
    this.head += newline === -1 ? text : text.slice(0, newline);
    if (newline === -1) return;
    this.startSeen = true;
    const status = this.head.startsWith(START) ? this.head.slice(START.length) : "";
    if (status.startsWith("err:")) this.setupError = status.slice(4) as OperationErrorCode;
    else this.markStarted();
    this.deliver("stderr", frame.bytes.subarray(newline + 1));
  }

  /** The stream is over: a stop waiting for the start must not wait forever. */
  finish(): void {
    this.markStarted();
  }

  private deliver(stream: WrapperFrame["stream"], input: Uint8Array): void {
    let bytes = input;
    if (stream === "stderr") {
      if (!this.pidSeen) bytes = this.takePid(bytes);
      if (this.ended === undefined) bytes = this.takeEnd(bytes);
    }
    if (bytes.length === 0) return;
    if (stream === "stdout") this.stdoutBytes += bytes.length;
    else this.stderrBytes += bytes.length;
    this.onChunk?.({ seq: this.seq++, stream, bytes });
  }

  private takePid(bytes: Uint8Array): Uint8Array {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = view.indexOf(this.pidLine);
    const end = at === -1 ? -1 : view.indexOf(10, at);
    if (end === -1) return bytes;
    this.pidSeen = true;
    const pid = Number(view.subarray(at + this.pidLine.length, end).toString("latin1"));
    if (Number.isInteger(pid) && pid > 0) {
      try {
        this.onSpawn?.({ pid, pgid: pid });
      } catch {
        // onSpawn must not throw; a faulty consumer must not leave the command unmanaged.
      }
    }
    return Buffer.concat([view.subarray(0, at), view.subarray(end + 1)]);
  }

  private takeEnd(bytes: Uint8Array): Uint8Array {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = view.indexOf(this.endLine);
    if (at === -1) return bytes;
    const rest = view.subarray(at + this.endLine.length).toString("latin1");
    const [appended = "", status = "", escapes = "", dropped = "", cut = ""] = rest
      .slice(0, Math.max(0, rest.indexOf("\n")))
      .split(":");
    this.ended = {
      appended: Number(appended) || 0,
      status: Number(status),
      escapes: SWEEPS[escapes],
      dropped: Number(dropped) || 0,
      copiesCut: cut === "1",
    };
    return view.subarray(0, at);
  }
}
