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
  WATCHDOG_SCRIPT,
  WRAPPER_SCRIPT,
  WrapperOutput,
  wrapperExecResult,
} from "@tackle/operations/container-scripts";
import type { PodClient } from "./pod-client.js";

/**
 * Commands longer than this (UTF-8 bytes) go to the wrapper on stdin instead of in its argv: the
 * argv travels in the exec request's URL, and API servers and proxies cap URL lengths (Node's
 * HTTP parser at 16 KiB, Go's net/http at 1 MiB of headers).
 */
export const COMMAND_IN_URL_BYTES = 2048;

/** Where per-command control directories go in the container. */
export interface RunCommandContext {
  client: PodClient;
  tempDir: string;
}

/**
 * Runs `command` in the pod in its own process group (see `WRAPPER_SCRIPT`), streams its output
 * as numbered chunks, and on timeout or abort stops the group from a second exec
 * (`STOP_SCRIPT`). Resolves for every way the command ends; a dropped connection gives status
 * `unknown` with a note (the watchdog in the pod ends the command).
 */
export async function runCommand(
  context: RunCommandContext,
  command: string,
  options: ExecOptions,
): Promise<ExecResult> {
  throwIfAborted(options.signal, "exec");
  if (options.sandbox) {
    // The pod is the boundary: the adapter adds no sandbox inside it, and says so.
    throw new OperationError(
      "not_supported",
      "exec: sandbox unavailable: in a pod the pod is the sandbox, and the Kubernetes adapter adds none inside it. Give the pod a restricted securityContext (readOnlyRootFilesystem, runAsNonRoot, drop ALL capabilities, no privilege escalation) and a NetworkPolicy, then call without the sandbox option (sandbox: false, tackle --no-sandbox).",
      { operation: "exec" },
    );
  }
  const startedAt = Date.now();
  const { client } = context;
  const token = randomBytes(8).toString("hex");
  const control = `${context.tempDir}/.tackle-exec-${token}`;
  const envArgs = envArguments(options.env);
  const streamChunks = options.outputPath === undefined || options.streamChunks !== false;
  const graceMs = Math.max(0, options.killGraceMs ?? EXEC_DEFAULTS.killGraceMs);
  const limit =
    options.outputPath !== undefined && options.outputLimitBytes !== undefined
      ? Math.max(0, Math.floor(options.outputLimitBytes))
      : undefined;
  const budget = outputBudgetArguments(limit);
  const commandBytes = Buffer.from(command, "utf8");
  const viaStdin = commandBytes.length > COMMAND_IN_URL_BYTES;
  const process = await client.start(
    [
      "sh",
      "-c",
      WRAPPER_SCRIPT,
      "sh",
      control,
      options.shell,
      viaStdin ? "" : command,
      options.outputPath ?? "",
      streamChunks ? "1" : "",
      options.cwd,
      String(graceMs),
      String(COPY_WAIT_MS / 1000),
      ...budget,
      WATCHDOG_SCRIPT,
      viaStdin ? String(commandBytes.length) : "",
      ...envArgs,
    ],
    // stdin stays open and unused while the command runs: the watchdog in the pod reads it.
    { stdin: true, operation: "exec", path: options.cwd },
  );
  if (viaStdin) process.write(commandBytes);
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
      // The group is gone; the wrapper exits after its sweep and waits. A stream still open
      // long after that (a wedged node) is closed.
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
  try {
    for await (const frame of process.frames) output.accept(frame);
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    output.finish();
  }
  const end = await process.ended;

  if (output.setupError) throw setupFailure(output.setupError, options);
  if (!output.startSeen && end.kind !== "lost") {
    throw new OperationError(
      "not_supported",
      `exec: the container has no usable sh (${end.kind === "exited" ? `exit ${end.exitCode}` : end.message})`,
      { operation: "exec" },
    );
  }
  let exitCode: number | undefined = output.ended?.status;
  if (exitCode === undefined || !Number.isInteger(exitCode))
    exitCode = end.kind === "exited" ? end.exitCode : undefined;
  let lost: string | undefined;
  if (output.ended === undefined) {
    // No end line: the wrapper was killed (the container went down) or the connection dropped.
    lost =
      end.kind === "lost"
        ? `${end.message}; the watchdog in the pod ends the command`
        : `the wrapper in pod ${client.pod?.pod} ended without its end line (${end.kind === "exited" ? `exit ${end.exitCode}` : end.message})`;
  }
  return wrapperExecResult({
    output,
    startedAt,
    stopReason,
    groupCleanup: stopping ? await stopping : { termSent: false, killSent: false, confirmed: true },
    spawnedPid,
    exitCode,
    lost,
    limit,
    streamChunks,
    outputPath: options.outputPath,
  });
}

/**
 * `ExecOptions.env` as `env` arguments: `-u NAME` for an unset, `NAME=value` for a set (pod
 * exec takes no environment of its own).
 */
function envArguments(values: ExecOptions["env"]): string[] {
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
  return [...unsets, ...sets];
}

/** Runs the stop script in a second exec; never throws (a failed stop is an unconfirmed cleanup). */
async function stopGroup(context: RunCommandContext, control: string, graceMs: number): Promise<ExecCleanup> {
  try {
    const result = await context.client.run(["sh", "-c", STOP_SCRIPT, "sh", control, String(graceMs)], {
      operation: "exec",
    });
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
