// The adapter of the "Add an adapter" guide: files on this machine (the local adapter), and
// commands through a transport of its own, a child process running `sh`. The transport is the
// only part written here: the command wrapper, its stop script, the reader of its stream and
// the result come from @tackle/operations, the same ones the Docker and Kubernetes adapters use.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import {
  type ExecCleanup,
  type ExecOptions,
  type ExecResult,
  type Operations,
  throwIfAborted,
} from "@tackle/operations";
import {
  checkAdapterOptions,
  EXEC_DEFAULTS,
  EXEC_OPTION_SPEC,
  RunningCommands,
} from "@tackle/operations/adapter";
import {
  COPY_WAIT_MS,
  outputBudgetArguments,
  parseStopReport,
  STOP_SCRIPT,
  setupFailure,
  WRAPPER_SCRIPT,
  type WrapperFrame,
  WrapperOutput,
  wrapperExecResult,
} from "@tackle/operations/container-scripts";
import { createLocalOperations } from "@tackle/operations-local";

/** Options of {@link createProcessOperations}. */
export interface ProcessOperationsOptions {
  /** Grace between SIGTERM and SIGKILL (default `EXEC_DEFAULTS.killGraceMs`). */
  killGraceMs?: number;
  /** Directory for the wrapper's per-command control directories (default: the OS temp dir). */
  tempDir?: string;
}

/**
 * The transport: runs `argv`, hands its stdout and stderr over as frames as they come, and
 * resolves with its exit code and whole stdout once it ended. A remote transport (an API's exec
 * stream, a socket) has the same three parts.
 */
function runArgv(
  argv: string[],
  onFrame?: (frame: WrapperFrame) => void,
): Promise<{ exitCode: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    child.stdout.on("data", (bytes: Buffer) => {
      stdout.push(bytes);
      onFrame?.({ stream: "stdout", bytes });
    });
    child.stderr.on("data", (bytes: Buffer) => onFrame?.({ stream: "stderr", bytes }));
    child.on("error", reject);
    child.on("close", (exitCode) => resolve({ exitCode, stdout: Buffer.concat(stdout).toString("utf8") }));
  });
}

/** One `exec`: the wrapper over the transport, and a second run of the stop script to stop it. */
async function execWrapped(
  command: string,
  options: ExecOptions,
  config: { killGraceMs: number; tempDir: string },
): Promise<ExecResult> {
  throwIfAborted(options.signal, "exec");
  const startedAt = Date.now();
  const token = randomBytes(8).toString("hex");
  const control = `${config.tempDir}/.tackle-exec-${token}`;
  const graceMs = options.killGraceMs ?? config.killGraceMs;
  const limit = options.outputPath === undefined ? undefined : options.outputLimitBytes;
  const streamChunks = options.outputPath === undefined || options.streamChunks !== false;
  // This transport has no environment option: every variable goes to the wrapper's `env`,
  // removals first (env takes its options before the assignments).
  const entries = Object.entries(options.env ?? {});
  const env = [
    ...entries.filter(([, value]) => value === undefined).flatMap(([name]) => ["-u", name]),
    ...entries.filter(([, value]) => value !== undefined).map(([name, value]) => `${name}=${value}`),
  ];
  let spawnedPid: number | undefined;
  const output = new WrapperOutput(token, options.onChunk, (spawned) => {
    spawnedPid = spawned.pid;
    options.onSpawn?.(spawned);
  });
  let stopReason: "timed-out" | "cancelled" | undefined;
  let stopping: Promise<ExecCleanup> | undefined;
  const stop = (reason: "timed-out" | "cancelled") => {
    if (stopReason) return;
    stopReason = reason;
    stopping = output.started.then(async () => {
      const report = await runArgv(["sh", "-c", STOP_SCRIPT, "sh", control, String(graceMs)]);
      return parseStopReport(report.stdout);
    });
  };
  const timer =
    options.timeoutMs === undefined ? undefined : setTimeout(() => stop("timed-out"), options.timeoutMs);
  const onAbort = () => stop("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let exit: { exitCode: number | null };
  try {
    exit = await runArgv(
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
        ...outputBudgetArguments(limit),
        "", // no watchdog: the transport's stdin is not kept open for one
        "", // the command is in the argv, not on stdin
        ...env,
      ],
      (frame) => output.accept(frame),
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    output.finish();
  }
  if (output.setupError) throw setupFailure(output.setupError, options);
  return wrapperExecResult({
    output,
    startedAt,
    stopReason,
    groupCleanup: stopping ? await stopping : { termSent: false, killSent: false, confirmed: true },
    spawnedPid,
    exitCode: output.ended?.status ?? exit.exitCode ?? undefined,
    lost: output.ended ? undefined : "the wrapper ended without its end line (it was killed)",
    limit,
    streamChunks,
    outputPath: options.outputPath,
  });
}

/**
 * `Operations` with the local adapter's files and commands run through {@link execWrapped}.
 *
 * @example
 * ```ts
 * const ops = createProcessOperations({ killGraceMs: 500 });
 * const result = await ops.exec("echo hi", { shell: "sh", cwd: "/tmp" });
 * await ops.dispose?.();
 * ```
 */
export function createProcessOperations(options: ProcessOperationsOptions = {}): Operations {
  checkAdapterOptions("createProcessOperations", options, {
    killGraceMs: EXEC_OPTION_SPEC.killGraceMs,
    tempDir: "non-empty-string",
  });
  const config = {
    killGraceMs: options.killGraceMs ?? EXEC_DEFAULTS.killGraceMs,
    tempDir: options.tempDir ?? tmpdir(),
  };
  const files = createLocalOperations({ rgPath: false });
  // dispose() ends every command still running: nothing of the adapter's outlives it.
  const running = new RunningCommands<ExecResult>();
  return {
    ...files,
    id: "process",
    exec: (command, execOptions) =>
      running.run(execOptions.signal, (signal) => execWrapped(command, { ...execOptions, signal }, config)),
    dispose: () => running.cancelAll(),
  };
}
