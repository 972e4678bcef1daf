import { randomBytes } from "node:crypto";
import { constants } from "node:os";
import {
  type ExecCleanup,
  type ExecOptions,
  type ExecResult,
  OperationError,
  type OperationErrorCode,
  OUTPUT_ASSEMBLE_SCRIPT,
  OUTPUT_CAPPER_SCRIPT,
  type OutputCut,
  outputCutMarker,
  outputCutMarkerFormat,
  outputHeadBytes,
  outputTailBytes,
  throwIfAborted,
} from "@tackle/operations";
import { EXEC_DEFAULTS } from "@tackle/operations/adapter";
import type { ContainerClient } from "./container-client.js";
import { COPY_WAIT_MS, STOP_SCRIPT, WRAPPER_SCRIPT } from "./exec-scripts.js";
import { type EscapeSweep, WrapperOutput } from "./wrapper-output.js";

/**
 * How long the exec stream may stay open, beyond the kill grace, after the stop script confirmed
 * the group gone: the wrapper's grace for background children (0.1 s), its sweep for escaped
 * processes (the grace, then at most 2 s for the KILL check), its wait for the relays and then
 * for the capper (`COPY_WAIT_MS` each) and the assembly of a capped output, with room to spare
 * (the sweep's ticks run a grep over /proc each, longer than their sleeps on a loaded machine).
 */
const STREAM_DRAIN_MS = 2000 + 2 * COPY_WAIT_MS + 2000;

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SETUP_CODES = new Set<OperationErrorCode>([
  "not_found",
  "not_directory",
  "permission_denied",
  "not_supported",
]);

/** Where the adapter keeps per-command control directories inside the container. */
export interface RunCommandContext {
  client: ContainerClient;
  tempDir: string;
}

/**
 * Runs `command` inside the container in its own process group (see `WRAPPER_SCRIPT`), streams
 * demultiplexed output as sequenced chunks, and stops the whole group on timeout or abort
 * through a second exec (`STOP_SCRIPT`): TERM, then KILL after the grace, each step reported in
 * `cleanup` only when confirmed. Resolves for every way the command ends; a container that stops
 * mid-command gives status `unknown` with a note, never a hang.
 */
export async function runCommand(
  context: RunCommandContext,
  command: string,
  options: ExecOptions,
): Promise<ExecResult> {
  throwIfAborted(options.signal, "exec");
  if (options.sandbox) {
    // The container is the boundary: the adapter adds no sandbox inside it, and says so.
    throw new OperationError(
      "not_supported",
      "exec: sandbox unavailable: in a container the container is the sandbox, and the Docker adapter adds none inside it. Start the container with --network none and --read-only (plus a writable volume for the workspace), then call without the sandbox option (sandbox: false, tackle --no-sandbox).",
      { operation: "exec" },
    );
  }
  const startedAt = Date.now();
  const { client } = context;
  const token = randomBytes(8).toString("hex");
  const control = `${context.tempDir}/.tackle-exec-${token}`;
  const { env, unset } = splitEnv(options.env);
  const streamChunks = options.outputPath === undefined || options.streamChunks !== false;
  const graceMs = Math.max(0, options.killGraceMs ?? EXEC_DEFAULTS.killGraceMs);
  const outputLimit =
    options.outputPath !== undefined && options.outputLimitBytes !== undefined
      ? Math.max(0, Math.floor(options.outputLimitBytes))
      : undefined;
  const budget =
    outputLimit === undefined
      ? ["", "", "", "", ""]
      : [
          String(outputHeadBytes(outputLimit)),
          String(outputTailBytes(outputLimit)),
          OUTPUT_CAPPER_SCRIPT,
          OUTPUT_ASSEMBLE_SCRIPT,
          outputCutMarkerFormat(outputLimit),
        ];
  const process = await client.start(
    [
      "sh",
      "-c",
      WRAPPER_SCRIPT,
      "sh",
      control,
      options.shell,
      command,
      options.outputPath ?? "",
      streamChunks ? "1" : "",
      options.cwd,
      String(graceMs),
      String(COPY_WAIT_MS / 1000),
      ...budget,
      ...unset,
    ],
    { env, operation: "exec", path: options.cwd },
  );
  let stopReason: "timed-out" | "cancelled" | undefined;
  let stopping: Promise<ExecCleanup> | undefined;
  let spawnedPid: number | undefined;
  const output = new WrapperOutput(token, options.onChunk, (spawn) => {
    spawnedPid = spawn.pid;
    options.onSpawn?.(spawn);
  });
  const stop = (reason: "timed-out" | "cancelled") => {
    if (stopReason) return;
    stopReason = reason;
    stopping = output.started.then(async () => {
      const cleanup = await stopGroup(context, control, graceMs);
      // The group is gone: the wrapper exits after its sweep for escaped processes and its wait
      // for the relays (see STREAM_DRAIN_MS). If the engine still holds the stream open (a
      // wedged container), stop waiting for it.
      setTimeout(() => process.detach(), graceMs + STREAM_DRAIN_MS).unref();
      return cleanup;
    });
  };
  const timer =
    options.timeoutMs !== undefined
      ? setTimeout(() => stop("timed-out"), Math.max(0, options.timeoutMs))
      : undefined;
  const onAbort = () => stop("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });

  let streamError: unknown;
  try {
    for await (const frame of process.frames) output.accept(frame);
  } catch (error) {
    // The engine dropped the stream (engine gone, or detached after a stop): judged below.
    streamError = error;
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    output.finish();
  }

  if (output.setupError) {
    const code = SETUP_CODES.has(output.setupError) ? output.setupError : "unknown";
    const what =
      code === "not_supported" ? `shell ${options.shell} not found in the container` : `cwd ${options.cwd}`;
    throw new OperationError(code, `exec: cannot start: ${what} (${code})`, {
      operation: "exec",
      path: options.cwd,
    });
  }

  let exitCode: number | undefined;
  let lost: string | undefined;
  if (output.ended && Number.isInteger(output.ended.status)) {
    // The wrapper printed its end marker with the status it exits with: no exec inspect (one
    // engine round trip less per command). Without the marker only the engine knows.
    exitCode = output.ended.status;
  } else {
    try {
      exitCode = await process.exitCode();
    } catch (error) {
      lost = error instanceof Error ? error.message : String(error);
    }
  }
  if (!output.startSeen && exitCode !== undefined && lost === undefined) {
    throw new OperationError("not_supported", `exec: the container has no usable sh (exit ${exitCode})`, {
      operation: "exec",
    });
  }
  if (lost === undefined && output.ended === undefined) {
    // A wrapper that ended without its end marker was killed: the container went down (every
    // process gets SIGKILL then), or the engine stream broke. Not the command's own failure:
    // its outcome is unknown.
    lost =
      streamError !== undefined && exitCode === undefined
        ? `the engine stream broke: ${streamError instanceof Error ? streamError.message : String(streamError)}`
        : `container ${client.containerName} stopped while the command ran (exit ${exitCode ?? "unknown"})`;
  }
  const groupCleanup: ExecCleanup = stopping
    ? await stopping
    : { termSent: false, killSent: false, confirmed: true };
  const cleanup = withCopiesCut(
    withEscapeSweep(
      groupCleanup.pid === undefined && spawnedPid !== undefined
        ? { ...groupCleanup, pid: spawnedPid }
        : groupCleanup,
      output.ended?.escapes,
    ),
    output.ended?.copiesCut === true,
    options.outputPath,
  );
  const dropped = output.ended?.dropped ?? 0;
  const outputCut: OutputCut | undefined =
    outputLimit !== undefined && dropped > 0
      ? {
          headBytes: outputHeadBytes(outputLimit),
          droppedBytes: dropped,
          tailBytes: outputTailBytes(outputLimit),
        }
      : undefined;
  const counts = {
    elapsedMs: Date.now() - startedAt,
    // Not streaming: the file holds both streams interleaved; the split is not known, so the
    // output the wrapper appended (the marker taken out, the dropped bytes put back) all counts
    // as stdout.
    stdoutBytes: streamChunks
      ? output.stdoutBytes
      : (output.ended?.appended ?? 0) +
        (outputCut ? dropped - outputCutMarker(outputLimit as number, dropped).length : 0),
    stderrBytes: streamChunks ? output.stderrBytes : 0,
    ...(outputCut ? { outputCut } : {}),
  };

  if (lost !== undefined) {
    return { status: "unknown", ...counts, cleanup: { ...cleanup, confirmed: false, note: lost } };
  }
  if (!cleanup.confirmed) {
    // Something of the command survived SIGKILL: its outcome cannot be called complete.
    return { status: "unknown", ...(exitCode !== undefined ? { exitCode } : {}), ...counts, cleanup };
  }
  // A stop that found the command already finished leaves its own exit code to speak.
  // (Judged on the group stop alone: escaped processes ended by the sweep do not make a command
  // that had already finished a stopped one.)
  if (stopReason && (groupCleanup.termSent || exitCode === undefined)) {
    const signal = exitCode !== undefined && exitCode > 128 ? signalName(exitCode - 128) : undefined;
    return { status: stopReason, ...(signal ? { signal } : { exitCode }), ...counts, cleanup };
  }
  return { status: exitCode === 0 ? "completed" : "failed", exitCode, ...counts, cleanup };
}

/**
 * Splits `ExecOptions.env` into `KEY=value` entries for the exec and names for the wrapper to
 * unset. sh can only unset a shell identifier; any other name cannot be set by it either.
 */
function splitEnv(values: ExecOptions["env"]): { env: string[]; unset: string[] } {
  const env: string[] = [];
  const unset: string[] = [];
  for (const [key, value] of Object.entries(values ?? {})) {
    if (key.length === 0 || key.includes("=") || key.includes("\0")) {
      throw new OperationError(
        "invalid_argument",
        `exec: invalid environment variable name: ${JSON.stringify(key)}`,
        {
          operation: "exec",
        },
      );
    }
    if (value === undefined) {
      if (SHELL_NAME.test(key)) unset.push(key);
    } else env.push(`${key}=${value}`);
  }
  return { env, unset };
}

/**
 * Adds what the wrapper's marker sweep did to the group cleanup: `escapesChecked` when it could
 * look (a mounted /proc), the signals it sent, and `confirmed: false` when a process survived.
 */
function withEscapeSweep(cleanup: ExecCleanup, sweep: EscapeSweep | undefined): ExecCleanup {
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
function withCopiesCut(cleanup: ExecCleanup, cut: boolean, outputPath: string | undefined): ExecCleanup {
  if (!cut) return cleanup;
  const copies = outputPath === undefined ? "the output relays" : `the output copies to ${outputPath}`;
  const note = `${copies} were still open ${COPY_WAIT_MS} ms after the command's processes ended (a process out of reach holds them, or they are stuck) and were ended: later output is missing`;
  return { ...cleanup, note: cleanup.note === undefined ? note : `${cleanup.note}; ${note}` };
}

/** Runs the stop script in a second exec; never throws (a failed stop is an unconfirmed cleanup). */
async function stopGroup(context: RunCommandContext, control: string, graceMs: number): Promise<ExecCleanup> {
  try {
    const result = await context.client.run(
      ["sh", "-c", STOP_SCRIPT, "sh", control, String(Math.max(0, graceMs))],
      {
        operation: "exec",
      },
    );
    const [pgid = "-", term, kill, gone] = result.stdout.toString("utf8").trim().split(" ");
    const pid = Number(pgid);
    return {
      termSent: term === "1",
      killSent: kill === "1",
      confirmed: gone === "1",
      ...(Number.isInteger(pid) && pid > 0 ? { pid } : {}),
      ...(gone === "1" ? {} : { note: "process group still present after SIGKILL" }),
    };
  } catch (error) {
    return {
      termSent: false,
      killSent: false,
      confirmed: false,
      note: `could not stop the process group: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function signalName(number: number): string | undefined {
  for (const [name, value] of Object.entries(constants.signals)) if (value === number) return name;
  return undefined;
}
