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
import type { ContainerClient } from "./container-client.js";

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
  const budget = outputBudgetArguments(outputLimit);
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
      // No watchdog (the exec's stdin is not attached) and the command in the argv.
      "",
      "",
      // Values come with the exec's environment; removals are the wrapper's `env -u`.
      ...unset.flatMap((name) => ["-u", name]),
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

  if (output.setupError) throw setupFailure(output.setupError, options);

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

/**
 * Splits `ExecOptions.env` into `KEY=value` entries for the exec and names the wrapper removes
 * from the command's environment (`env -u`).
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
      unset.push(key);
    } else env.push(`${key}=${value}`);
  }
  return { env, unset };
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
    return parseStopReport(result.stdout.toString("utf8"));
  } catch (error) {
    return {
      termSent: false,
      killSent: false,
      confirmed: false,
      note: `could not stop the process group: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
