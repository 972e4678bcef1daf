import { randomBytes } from "node:crypto";
import { EXEC_DEFAULTS } from "../adapter/exec-defaults.js";
import { OperationError, throwIfAborted } from "../errors.js";
import type { ExecCleanup, ExecOptions, ExecResult } from "../types.js";
import { COPY_WAIT_MS, STREAM_DRAIN_MS } from "./exec-scripts.js";
import { type WrapperFrame, WrapperOutput } from "./wrapper-output.js";
import { outputBudgetArguments, parseStopReport, setupFailure, wrapperExecResult } from "./wrapper-result.js";

/** How a wrapped process ended once its output ended: its exit code, or why it is not known. */
export type WrappedEnd =
  | { exitCode: number; why?: undefined; lost?: undefined }
  | {
      exitCode?: undefined;
      /** Why the exit code is not known, for the result's note. */
      why: string;
      /** The environment went away (container stopped, connection dropped): the outcome is unknown. */
      lost: boolean;
    };

/** The wrapper process as the adapter's transport started it. */
export interface WrappedProcess {
  /** Output in arrival order: stdout, and stderr (where the wrapper frames its reports). */
  readonly frames: AsyncIterable<WrapperFrame>;
  /**
   * Asked only when the wrapper's end line did not come: how the process ended. `started` says
   * whether the wrapper reported the command's start (without it, an exit code means the
   * environment has no usable `sh`). Never rejects.
   */
  ended(started: boolean): Promise<WrappedEnd>;
  /** Lets go of a process whose stream stays open after its group was stopped (a wedged engine). */
  release(): void;
}

/** The parts of the wrapper's argv a transport passes its own way (see {@link WrapperCall.argv}). */
export interface WrapperTail {
  /** The command in the argv, or `""` when the transport sends it on stdin. */
  command: string;
  /** The watchdog script, or `""` when the process has no stdin to watch. */
  watchdog: string;
  /** The command's UTF-8 length when it comes on stdin, else `""`. */
  commandBytes: string;
  /** The `env` arguments: `-u NAME` to remove, `NAME=value` to set (see {@link envArguments}). */
  env: string[];
}

/** One command to start through `WRAPPER_SCRIPT`. */
export interface WrapperCall {
  command: string;
  options: ExecOptions;
  /** The wrapper's arguments (after `sh -c WRAPPER_SCRIPT sh`) with the transport's tail. */
  argv(tail: WrapperTail): string[];
}

/**
 * How an adapter runs the shared command wrapper: where its control directories go, how it
 * starts the wrapper and the stop script, and what it says about its environment.
 */
export interface WrappedCommandTransport {
  /** Where the command runs, for messages (`container`, `pod`, `sandbox`). */
  readonly place: string;
  /** Directory in the environment for per-command control directories. */
  readonly tempDir: string;
  /**
   * The refusal for a call that still asks for an OS sandbox here, naming what to do instead
   * (default: a generic one naming the place). Adapters whose environment is the boundary check
   * `options.sandbox` against it and pass the call on without it.
   */
  readonly sandboxRefusal?: string;
  /** Starts the wrapper. */
  start(call: WrapperCall): Promise<WrappedProcess>;
  /** Runs `STOP_SCRIPT` with `args` to its end and resolves with its stdout. */
  runStop(args: string[]): Promise<string>;
}

/**
 * Runs `command` through the shared wrapper (`WRAPPER_SCRIPT`: own process group, relays, output
 * budget, sweep of processes that left the group), streams its output as numbered chunks, and on
 * timeout or abort stops the group from a second run of `STOP_SCRIPT`: TERM, then KILL after the
 * grace, each step reported only when confirmed. Resolves for every way the command ends; an
 * environment that goes away gives status `unknown` with a note, never a hang.
 */
export async function runWrappedCommand(
  transport: WrappedCommandTransport,
  command: string,
  options: ExecOptions,
): Promise<ExecResult> {
  throwIfAborted(options.signal, "exec");
  // An adapter that can sandbox (the environment's own boundary) handles the option before this;
  // here it is refused, never ignored.
  if (options.sandbox) {
    const refusal =
      transport.sandboxRefusal ??
      `exec: sandbox unavailable: the ${transport.place} adds no OS sandbox inside it. Call without the sandbox option (sandbox: false, tackle --no-sandbox).`;
    throw new OperationError("not_supported", refusal, { operation: "exec" });
  }
  const startedAt = Date.now();
  const token = randomBytes(8).toString("hex");
  const control = `${transport.tempDir}/.tackle-exec-${token}`;
  const streamChunks = options.outputPath === undefined || options.streamChunks !== false;
  const graceMs = Math.max(0, options.killGraceMs ?? EXEC_DEFAULTS.killGraceMs);
  const limit =
    options.outputPath !== undefined && options.outputLimitBytes !== undefined
      ? Math.max(0, Math.floor(options.outputLimitBytes))
      : undefined;
  const head = [
    control,
    options.shell,
    options.outputPath ?? "",
    streamChunks ? "1" : "",
    options.cwd,
    String(graceMs),
    String(COPY_WAIT_MS / 1000),
    ...outputBudgetArguments(limit),
  ];
  const process = await transport.start({
    command,
    options,
    argv: (tail) => [
      ...head.slice(0, 2),
      tail.command,
      ...head.slice(2),
      tail.watchdog,
      tail.commandBytes,
      ...tail.env,
    ],
  });
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
      const cleanup = await stopGroup(transport, control, graceMs);
      // The group is gone: the wrapper exits after its sweep and its wait for the relays. A
      // stream still open long after that (a wedged engine or node) is let go.
      setTimeout(() => process.release(), graceMs + STREAM_DRAIN_MS).unref();
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
    // The stream broke (engine gone, connection dropped, or let go after a stop): judged below.
    streamError = error;
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    output.finish();
  }
  if (output.setupError) throw setupFailure(output.setupError, options);
  const status = output.ended?.status;
  // The wrapper's end line carries the status it exits with; only without it is the transport asked.
  const end: WrappedEnd =
    status !== undefined && Number.isInteger(status)
      ? { exitCode: status }
      : await process.ended(output.startSeen);
  const how = end.exitCode !== undefined ? `exit ${end.exitCode}` : end.why;
  if (!output.startSeen && !end.lost) {
    throw new OperationError("not_supported", `exec: the ${transport.place} has no usable sh (${how})`, {
      operation: "exec",
    });
  }
  let lost: string | undefined;
  if (output.ended === undefined) {
    // No end line: the wrapper was killed (the environment went down) or the stream broke. Not
    // the command's own failure: its outcome is unknown.
    lost = end.lost
      ? end.why
      : streamError !== undefined
        ? `the ${transport.place}'s output stream broke: ${streamError instanceof Error ? streamError.message : String(streamError)}`
        : `the wrapper in the ${transport.place} ended without its end line (${how})`;
  }
  return wrapperExecResult({
    output,
    startedAt,
    stopReason,
    groupCleanup: stopping ? await stopping : { termSent: false, killSent: false, confirmed: true },
    spawnedPid,
    exitCode: end.exitCode,
    lost,
    limit,
    streamChunks,
    outputPath: options.outputPath,
  });
}

/**
 * `ExecOptions.env` as the wrapper's `env` arguments: `-u NAME` to remove, `NAME=value` to set
 * (`env` takes its options before the first assignment: after it, `-u` would be the command).
 * With `sets: false` the sets are left out, for a transport that passes them natively.
 */
export function envArguments(values: ExecOptions["env"], options: { sets?: boolean } = {}): string[] {
  const unsets: string[] = [];
  const sets: string[] = [];
  for (const [key, value] of Object.entries(values ?? {})) {
    if (key.length === 0 || key.includes("=") || key.includes("\0") || (value ?? "").includes("\0")) {
      throw new OperationError(
        "invalid_argument",
        `exec: invalid environment entry: ${JSON.stringify(key)}`,
        {
          operation: "exec",
        },
      );
    }
    if (value === undefined) unsets.push("-u", key);
    else sets.push(`${key}=${value}`);
  }
  return options.sets === false ? unsets : [...unsets, ...sets];
}

/** Runs the stop script; never throws (a failed stop is an unconfirmed cleanup). */
async function stopGroup(
  transport: WrappedCommandTransport,
  control: string,
  graceMs: number,
): Promise<ExecCleanup> {
  try {
    return parseStopReport(await transport.runStop([control, String(graceMs)]));
  } catch (error) {
    return {
      termSent: false,
      killSent: false,
      confirmed: false,
      note: `could not stop the process group: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
