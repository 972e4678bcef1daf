import { constants } from "node:os";
import { OperationError, type OperationErrorCode } from "../errors.js";
import {
  OUTPUT_ASSEMBLE_SCRIPT,
  OUTPUT_CAPPER_SCRIPT,
  type OutputCut,
  outputCutMarker,
  outputCutMarkerFormat,
  outputHeadBytes,
  outputTailBytes,
} from "../output-cut.js";
import type { ExecCleanup, ExecOptions, ExecResult } from "../types.js";
import { COPY_WAIT_MS } from "./exec-scripts.js";
import type { EscapeSweep, WrapperOutput } from "./wrapper-output.js";

/**
 * The wrapper's HEAD, TAIL, CAPPER, ASSEMBLE and FORMAT arguments for an output budget of
 * `limit` bytes, or five empty ones for none (see `WRAPPER_SCRIPT`).
 */
export function outputBudgetArguments(limit: number | undefined): string[] {
  if (limit === undefined) return ["", "", "", "", ""];
  return [
    String(outputHeadBytes(limit)),
    String(outputTailBytes(limit)),
    OUTPUT_CAPPER_SCRIPT,
    OUTPUT_ASSEMBLE_SCRIPT,
    outputCutMarkerFormat(limit),
  ];
}

/** The setup failures the wrapper reports (`\0tackle:err:<code>`) that keep their own code. */
const SETUP_CODES = new Set<OperationErrorCode>([
  "not_found",
  "not_directory",
  "permission_denied",
  "not_supported",
]);

/** The error `exec` rejects with when the wrapper could not start the command. */
export function setupFailure(setupError: OperationErrorCode, options: ExecOptions): OperationError {
  const code = SETUP_CODES.has(setupError) ? setupError : "unknown";
  const what =
    code === "not_supported" ? `shell ${options.shell} not found in the container` : `cwd ${options.cwd}`;
  return new OperationError(code, `exec: cannot start: ${what} (${code})`, {
    operation: "exec",
    path: options.cwd,
  });
}

/**
 * The stop script's report (`<pgid> <term> <kill> <gone>`, see `STOP_SCRIPT`) as a cleanup
 * record.
 */
export function parseStopReport(stdout: string): ExecCleanup {
  const [group = "-", term, kill, gone] = stdout.trim().split(" ");
  const pid = Number(group);
  return {
    termSent: term === "1",
    killSent: kill === "1",
    confirmed: gone === "1",
    ...(Number.isInteger(pid) && pid > 0 ? { pid } : {}),
    ...(gone === "1" ? {} : { note: "process group still present after SIGKILL" }),
  };
}

/**
 * Adds what the wrapper's marker sweep did to the group cleanup: `escapesChecked` when it could
 * look (a mounted /proc), the signals it sent, and `confirmed: false` when a process survived.
 */
export function withEscapeSweep(cleanup: ExecCleanup, sweep: EscapeSweep | undefined): ExecCleanup {
  if (sweep === undefined) return cleanup;
  const result: ExecCleanup = { ...cleanup, escapesChecked: true };
  if (sweep === "none") return result;
  result.termSent = true;
  if (sweep === "killed" || sweep === "survived") result.killSent = true;
  if (sweep === "survived") {
    result.confirmed = false;
    result.note = "a process that left the command's process group survived SIGKILL";
  } else {
    result.note ??= "processes that left the command's process group were ended";
  }
  return result;
}

/**
 * Adds to the cleanup's note that the wrapper ended an output copier (relay, capper) still open
 * `COPY_WAIT_MS` after the command's processes were gone: what came later is missing.
 */
export function withCopiesCut(
  cleanup: ExecCleanup,
  cut: boolean,
  outputPath: string | undefined,
): ExecCleanup {
  if (!cut) return cleanup;
  const copies = outputPath === undefined ? "the output relays" : `the output copies to ${outputPath}`;
  const note = `${copies} were still open ${COPY_WAIT_MS} ms after the command's processes ended (a process out of reach holds them, or they are stuck) and were ended: later output is missing`;
  return { ...cleanup, note: cleanup.note === undefined ? note : `${cleanup.note}; ${note}` };
}

/** The name of signal `number` (`SIGTERM` for 15), from the wrapper's exit status 128 + n. */
export function signalName(number: number): string | undefined {
  for (const [name, value] of Object.entries(constants.signals)) if (value === number) return name;
  return undefined;
}

/** How one wrapped command went, as the transport saw it: what {@link wrapperExecResult} needs. */
export interface WrappedRun {
  /** The reader the whole stream went through. */
  output: WrapperOutput;
  /** `Date.now()` when `exec` was called. */
  startedAt: number;
  /** Why the host stopped the command, if it did. */
  stopReason: "timed-out" | "cancelled" | undefined;
  /** The stop script's report (`parseStopReport`), or a clean record when there was no stop. */
  groupCleanup: ExecCleanup;
  /** The command's pid from the wrapper's pid line. */
  spawnedPid: number | undefined;
  /** The exit status: the end line's, else the transport's own (undefined when unknown). */
  exitCode: number | undefined;
  /** Why the end was not seen (the environment went down, the stream broke), if it was not. */
  lost: string | undefined;
  /** The output budget in bytes, when `outputPath` and `outputLimitBytes` were given. */
  limit: number | undefined;
  /** Whether chunks were streamed back (not `outputPath` with `streamChunks: false`). */
  streamChunks: boolean;
  /** `ExecOptions.outputPath`. */
  outputPath: string | undefined;
}

/**
 * The `ExecResult` of a wrapped command: status from the exit code, the stop and what the sweep
 * found (`unknown` when the end was not seen or something survived SIGKILL), the cleanup record
 * with the sweep's and the copiers' notes, byte counts (without streaming, everything the
 * wrapper appended counts as stdout, the budget's marker taken out and the dropped bytes put
 * back) and the output cut.
 */
export function wrapperExecResult(run: WrappedRun): ExecResult {
  const { output, groupCleanup, exitCode, limit } = run;
  const cleanup = withCopiesCut(
    withEscapeSweep(
      groupCleanup.pid === undefined && run.spawnedPid !== undefined
        ? { ...groupCleanup, pid: run.spawnedPid }
        : groupCleanup,
      output.ended?.escapes,
    ),
    output.ended?.copiesCut === true,
    run.outputPath,
  );
  const dropped = output.ended?.dropped ?? 0;
  const outputCut: OutputCut | undefined =
    limit !== undefined && dropped > 0
      ? { headBytes: outputHeadBytes(limit), droppedBytes: dropped, tailBytes: outputTailBytes(limit) }
      : undefined;
  const counts = {
    elapsedMs: Date.now() - run.startedAt,
    stdoutBytes: run.streamChunks
      ? output.stdoutBytes
      : (output.ended?.appended ?? 0) +
        (outputCut ? dropped - outputCutMarker(limit as number, dropped).length : 0),
    stderrBytes: run.streamChunks ? output.stderrBytes : 0,
    ...(outputCut ? { outputCut } : {}),
  };
  if (run.lost !== undefined) {
    return { status: "unknown", ...counts, cleanup: { ...cleanup, confirmed: false, note: run.lost } };
  }
  if (!cleanup.confirmed) {
    // Something of the command survived SIGKILL: its outcome cannot be called complete.
    return { status: "unknown", ...(exitCode !== undefined ? { exitCode } : {}), ...counts, cleanup };
  }
  // A stop that found the command already finished leaves its own exit code to speak (judged on
  // the group stop alone: escapees ended by the sweep do not make a finished command stopped).
  if (run.stopReason && (groupCleanup.termSent || exitCode === undefined)) {
    const signal = exitCode !== undefined && exitCode > 128 ? signalName(exitCode - 128) : undefined;
    return { status: run.stopReason, ...(signal ? { signal } : { exitCode }), ...counts, cleanup };
  }
  return { status: exitCode === 0 ? "completed" : "failed", exitCode, ...counts, cleanup };
}
