/**
 * `Operations.exec` over a sandbox session whose commands run in a POSIX system: the shared
 * command wrapper of `@tackle/operations` (own process group, relays, output budget, sweep of
 * escaped processes) started through `spawn`, its framed stderr read by `WrapperOutput`, and a
 * stop (TERM, then KILL after the grace, each step confirmed) through a second `run` of the
 * shared stop script.
 */
import { randomBytes } from "node:crypto";
import {
  type ExecCleanup,
  type ExecOptions,
  type ExecResult,
  OperationError,
  throwIfAborted,
} from "@tackle/operations";
import { EXEC_DEFAULTS } from "@tackle/operations/adapter";
import {
  COPY_WAIT_MS,
  outputBudgetArguments,
  parseStopReport,
  STOP_SCRIPT,
  STREAM_DRAIN_MS,
  setupFailure,
  WRAPPER_SCRIPT,
  WrapperOutput,
  wrapperExecResult,
} from "@tackle/operations/container-scripts";
import type { SandboxProcess } from "./sandbox-types.js";
import { type SessionShell, scriptLine, sessionFailure } from "./session-shell.js";

/**
 * Runs `command` through the wrapper (see the module comment). Resolves for every way the
 * command ends; a session that loses the process gives status `unknown` with a note.
 */
export async function execOnSession(
  shell: SessionShell,
  tempDir: string,
  command: string,
  options: ExecOptions,
): Promise<ExecResult> {
  throwIfAborted(options.signal, "exec");
  if (options.sandbox) {
    throw new OperationError(
      "not_supported",
      "exec: sandbox unavailable: the sandbox session is the boundary, and this adapter adds no OS sandbox inside it. Call without the sandbox option (sandbox: false, tackle --no-sandbox).",
      { operation: "exec" },
    );
  }
  const startedAt = Date.now();
  const token = randomBytes(8).toString("hex");
  const control = `${tempDir}/.tackle-exec-${token}`;
  const envArgs = environmentArguments(options.env);
  const streamChunks = options.outputPath === undefined || options.streamChunks !== false;
  const graceMs = Math.max(0, options.killGraceMs ?? EXEC_DEFAULTS.killGraceMs);
  const outputLimit =
    options.outputPath !== undefined && options.outputLimitBytes !== undefined
      ? Math.max(0, Math.floor(options.outputLimitBytes))
      : undefined;
  const args = [
    control,
    options.shell,
    command,
    options.outputPath ?? "",
    streamChunks ? "1" : "",
    options.cwd,
    String(graceMs),
    String(COPY_WAIT_MS / 1000),
    ...outputBudgetArguments(outputLimit),
    // No watchdog (the session gives no stdin to hold) and the command in the argv.
    "",
    "",
    ...envArgs,
  ];
  let process: SandboxProcess;
  try {
    process = await shell.session.spawn({ command: scriptLine(WRAPPER_SCRIPT, "sh", args) });
  } catch (error) {
    throw sessionFailure(error, "exec", options.signal, options.cwd);
  }
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
      const cleanup = await stopGroup(shell, control, graceMs);
      // The group is gone; a session that still holds the process open past the wrapper's own
      // drain is told to end it.
      setTimeout(
        () => void Promise.resolve(process.kill()).catch(() => undefined),
        graceMs + STREAM_DRAIN_MS,
      ).unref();
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
    await Promise.all([
      relay(process.stdout, (bytes) => output.accept({ stream: "stdout", bytes })),
      relay(process.stderr, (bytes) => output.accept({ stream: "stderr", bytes })),
    ]);
  } catch (error) {
    streamError = error;
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    output.finish();
  }
  if (output.setupError) throw setupFailure(output.setupError, options);

  let exitCode: number | undefined;
  let lost: string | undefined;
  if (output.ended && Number.isInteger(output.ended.status)) exitCode = output.ended.status;
  else {
    try {
      exitCode = (await process.wait()).exitCode;
    } catch (error) {
      lost = error instanceof Error ? error.message : String(error);
    }
  }
  if (!output.startSeen && exitCode !== undefined && lost === undefined) {
    throw new OperationError("not_supported", `exec: the sandbox has no usable sh (exit ${exitCode})`, {
      operation: "exec",
    });
  }
  if (lost === undefined && output.ended === undefined) {
    lost =
      streamError !== undefined
        ? `the session's output stream broke: ${streamError instanceof Error ? streamError.message : String(streamError)}`
        : `the command's wrapper ended without its report (exit ${exitCode ?? "unknown"}): the sandbox may have stopped`;
  }
  return wrapperExecResult({
    output,
    startedAt,
    stopReason,
    groupCleanup: stopping ? await stopping : { termSent: false, killSent: false, confirmed: true },
    spawnedPid,
    exitCode,
    lost,
    limit: outputLimit,
    streamChunks,
    outputPath: options.outputPath,
  });
}

/** Hands every chunk of `stream` to `accept`, in order. */
async function relay(stream: ReadableStream<Uint8Array>, accept: (bytes: Uint8Array) => void): Promise<void> {
  for await (const chunk of stream) accept(chunk);
}

/**
 * `ExecOptions.env` as the wrapper's `env` arguments: `NAME=VALUE` to set, `-u NAME` to remove
 * (the session's own `env` option cannot remove a variable).
 */
function environmentArguments(values: ExecOptions["env"]): string[] {
  const unset: string[] = [];
  const set: string[] = [];
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
    if (value === undefined) unset.push("-u", key);
    else set.push(`${key}=${value}`);
  }
  // `env` takes its options before the first assignment: after it, `-u` would be the command.
  return [...unset, ...set];
}

/** Runs the stop script through the session; never throws (a failed stop is an unconfirmed cleanup). */
async function stopGroup(shell: SessionShell, control: string, graceMs: number): Promise<ExecCleanup> {
  try {
    const result = await shell.run(STOP_SCRIPT, [control, String(graceMs)], "exec", undefined);
    return parseStopReport(result.stdout);
  } catch (error) {
    return {
      termSent: false,
      killSent: false,
      confirmed: false,
      note: `could not stop the process group: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
