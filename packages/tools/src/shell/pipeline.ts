import { type AuditRecorder, NO_AUDIT } from "@tackle/agent-core";
import type { ArtifactStore } from "@tackle/extensions";
import {
  type ExecResult,
  type ExecStatus,
  type Operations,
  outputHeadBytes,
  type SandboxOptions,
} from "@tackle/operations";
import { type OutputTimeline, recordRunEvidence, recordSpawn } from "../audit/shell-audit.js";
import type { WorkspaceSnapshotHook } from "../audit/workspace-audit.js";
import { DEFAULTS } from "../defaults.js";
import { truncateTail } from "../truncate.js";
import { OutputCapture } from "./capture.js";
import {
  buildShellEnv,
  envFilterPrelude,
  newRunId,
  SECRET_NAME_PATTERN,
  type ShellEnvOptions,
} from "./env.js";
import { escapesAlreadyEnded, huntEscapedProcesses } from "./escape.js";
import { detectPrompt, wantedInput } from "./prompt.js";
import { hashFile, readRange, readTail } from "./read-back.js";
import type { ShellRunOutcome, ToolShell } from "./run-outcome.js";
import { withOutputBlocks } from "./sandbox.js";
import { sanitizeOutput } from "./sanitize.js";

export type { ShellRunOutcome, ToolShell } from "./run-outcome.js";

/** What the pipeline needs from an environment. */
export type PipelineOperations = Pick<Operations, "platform" | "exec" | "stat" | "openRead">;

/** Settings of the pipeline, shared by the bash and powershell tools. */
export interface ShellPipelineOptions {
  /** Environment hygiene: which variables are removed, which are added. */
  env?: ShellEnvOptions;
  /**
   * Fast path (default true): the environment writes the artifact itself (`outputPath` with
   * `streamChunks: false`) and the host only peeks at the file's end while the command runs.
   * Both streams share one file descriptor, so their order is exact but which line came from
   * stderr is lost. `false` streams every chunk through the host (stream labels kept, slower).
   */
  fastPath?: boolean;
  /** Silence after a prompt-like last line before the command is stopped (ms, default 3000). */
  promptSilenceMs?: number;
  /** How often the running command's output is checked (ms, default 250). */
  pollIntervalMs?: number;
  /** SIGTERM to SIGKILL grace (ms, default `DEFAULTS.killGraceMs`). */
  killGraceMs?: number;
  /**
   * Also end processes a finished command left behind (`cmd &`, `nohup`, `setsid`), found by the
   * run marker. Default true: a foreground call leaves nothing running; use `background: true`.
   */
  reapLeftovers?: boolean;
  /** Lines / bytes of output shown to the model (default `DEFAULTS.maxLines` / `maxBytes`). */
  maxLines?: number;
  maxBytes?: number;
  /**
   * Bytes of one command's output kept in its artifact (default `DEFAULTS.shellOutputMaxBytes`),
   * enforced by the environment's own writer: past it the artifact keeps the first and the last
   * half and the command runs on (see `ExecOptions.outputLimitBytes`), so a runaway command
   * cannot fill the disk it runs on and a long build's last lines are kept.
   */
  maxOutputBytes?: number;
  /**
   * Run every command in the environment's OS sandbox with this profile (the workspace roots are
   * added to `writable`), or `false` to run without one even where the environment sandboxes by
   * default. Set by the host, never by the model. An environment that cannot sandbox fails the
   * call (`not_supported`) instead of running it unsandboxed. See docs/sandbox.md.
   */
  sandbox?: SandboxOptions | false;
}

/** Outputs up to this size are hashed before the result returns; larger ones in the background. */
export const INLINE_HASH_BYTES = 16 * 1024 * 1024;
/** Default silence after a prompt before the command is stopped. */
export const PROMPT_SILENCE_MS = 3000;
/** Bytes of the file's end peeked at per poll while a command runs. */
const PEEK_BYTES = 16 * 1024;

/** One command to run. */
export interface ShellRunRequest {
  shell: ToolShell;
  command: string;
  /** Absolute working directory, already checked against the workspace. */
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Live view of the output's (sanitised) tail while the command runs. */
  onProgress?: (tail: string, totalBytes: number) => void;
  /** Records the run's spawn, output timeline and process end in the call's audit record. */
  audit?: AuditRecorder;
  /** This call's output limit, over the pipeline's `maxOutputBytes`. */
  maxOutputBytes?: number;
  /**
   * The audit's snapshots of the working directory: the before snapshot taken while the output
   * file is created (done before the command starts), the after snapshot started as soon as the
   * command and every process it left are known to be gone.
   */
  workspace?: WorkspaceSnapshotHook;
  /** This call's sandbox (see {@link ShellPipelineOptions.sandbox}, roots already added). */
  sandbox?: SandboxOptions | false;
}

/**
 * Runs one foreground command through `ops.exec` and turns it into what a shell tool reports:
 * output in an artifact, a sanitised tail, prompt detection, and cleanup of escaped processes.
 * Never spawns anything itself, so it runs the same locally, over SSH and in a container.
 */
export async function runShellCommand(
  ops: PipelineOperations,
  artifacts: ArtifactStore,
  request: ShellRunRequest,
  options: ShellPipelineOptions = {},
): Promise<ShellRunOutcome> {
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const maxLines = options.maxLines ?? DEFAULTS.maxLines;
  const tailChars = maxBytes * 4;
  const fastPath = options.fastPath ?? true;
  const graceMs = options.killGraceMs ?? DEFAULTS.killGraceMs;
  const outputLimitBytes = request.maxOutputBytes ?? options.maxOutputBytes ?? DEFAULTS.shellOutputMaxBytes;
  const runId = newRunId();
  const creating = artifacts.create({
    prefix: request.shell,
    extension: "log",
    ...(request.signal ? { signal: request.signal } : {}),
  });
  // The file's creation waits on the disk; the before snapshot lists meanwhile. Both are done
  // before the command starts (a failed creation starts nothing).
  const [artifact] = await Promise.all([creating, request.workspace?.before()]);

  const promptStop = new AbortController();
  const signal = request.signal ? AbortSignal.any([request.signal, promptStop.signal]) : promptStop.signal;
  const live = new OutputCapture(tailChars, { hash: !fastPath });
  const audit = request.audit ?? NO_AUDIT;
  const watch = watchOutput(ops, artifact.path, live, {
    fastPath,
    timeline: audit.enabled,
    headBytes: outputHeadBytes(outputLimitBytes),
    pollMs: options.pollIntervalMs ?? 250,
    silenceMs: options.promptSilenceMs ?? PROMPT_SILENCE_MS,
    onPrompt: () => promptStop.abort(),
    ...(request.onProgress ? { onProgress: request.onProgress } : {}),
  });

  const env = buildShellEnv(runId, options.env);
  const spawn = {
    shell: request.shell,
    cwd: request.cwd,
    command: request.command,
    timeoutMs: request.timeoutMs,
    background: false,
    env,
    removedPattern: options.env?.filter ?? SECRET_NAME_PATTERN,
    runId,
    outputPath: artifact.path,
  };
  // Recorded when the process starts, with its group id; without one if it never started.
  let spawned = false;
  let result: ExecResult;
  try {
    result = await ops.exec(envFilterPrelude(request.shell, options.env) + request.command, {
      shell: request.shell,
      cwd: request.cwd,
      env,
      timeoutMs: request.timeoutMs,
      killGraceMs: graceMs,
      signal,
      outputPath: artifact.path,
      outputLimitBytes,
      streamChunks: !fastPath,
      onSpawn: ({ pgid, sandbox }) => {
        spawned = true;
        recordSpawn(audit, { ...spawn, pid: pgid, ...(sandbox ? { sandbox } : {}) });
      },
      ...(request.sandbox !== undefined ? { sandbox: request.sandbox } : {}),
      // Nothing of the command is left: listed while the environment finishes the output.
      onEnded: (cleanup) => {
        if (escapesAlreadyEnded({ cleanup })) request.workspace?.after();
      },
      ...(fastPath ? {} : { onChunk: (chunk) => watch.onChunk(chunk.bytes) }),
    });
  } finally {
    if (!spawned) recordSpawn(audit, spawn);
    await watch.stop();
  }

  const stopped = result.status !== "completed" && result.status !== "failed";
  const escapes =
    !escapesAlreadyEnded(result) && (stopped || (options.reapLeftovers ?? true))
      ? await huntEscapedProcesses(ops, runId, { cwd: request.cwd, graceMs })
      : undefined;
  // Whatever the command started has been dealt with: listed while the output is read back.
  request.workspace?.after();

  const size = (await ops.stat(artifact.path)).size;
  let capture: OutputCapture;
  let artifactHash: Promise<string | undefined>;
  if (fastPath) {
    capture = await readTail(ops, artifact.path, size, tailChars, tailChars);
    // Read whole already (the common small output): its hash comes with it, no second read.
    const whole = capture.digest();
    artifactHash =
      whole !== undefined
        ? Promise.resolve(whole)
        : size <= INLINE_HASH_BYTES
          ? Promise.resolve((await hashFile(ops, artifact.path)).sha256)
          : hashFile(ops, artifact.path).then(
              (h) => h.sha256,
              () => undefined,
            );
  } else {
    live.end();
    capture = live;
    artifactHash = Promise.resolve(live.totalBytes === size ? live.digest() : undefined);
  }
  artifacts.finalize(artifact.id, { size });
  void artifactHash.then((sha256) => {
    if (sha256) artifacts.finalize(artifact.id, { size, sha256 });
  });

  const rawTail = capture.tail();
  const text = sanitizeOutput(rawTail);
  const truncation = truncateTail(text, { maxLines, maxBytes });
  const prompt =
    watch.prompt() && promptStop.signal.aborted && !request.signal?.aborted ? watch.prompt() : undefined;

  let status: ExecStatus = result.status;
  if (escapes && escapes.remaining.length > 0) status = "unknown";
  if (stopped && escapes && !escapes.supported && !result.cleanup.confirmed) status = "unknown";

  const outcome: ShellRunOutcome = {
    status,
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    ...(result.signal !== undefined ? { signal: result.signal } : {}),
    elapsedMs: result.elapsedMs,
    totalBytes: size,
    outputLimitBytes,
    ...(result.outputCut ? { budgetCut: result.outputCut } : {}),
    artifact: { ...artifact, size },
    artifactHash,
    output: truncation.content,
    truncation,
    outputCut: capture.cut || truncation.truncated,
    ...(prompt !== undefined ? { prompt } : {}),
    wantedInput: result.status === "failed" && wantedInput(text),
    ...(escapes ? { escapes } : {}),
    cleanup: result.cleanup,
    runId,
    ...(result.sandbox
      ? {
          sandbox: result.status === "completed" ? result.sandbox : withOutputBlocks(result.sandbox, rawTail),
        }
      : {}),
  };
  recordRunEvidence(audit, outcome, {
    timeline: watch.timeline(),
    polled: fastPath ? { resolutionMs: options.pollIntervalMs ?? 250 } : undefined,
    stdoutBytes: result.stdoutBytes,
    stderrBytes: result.stderrBytes,
    rawTail,
    cleanTail: text,
    timedOut: result.status === "timed-out",
  });
  return outcome;
}

interface WatchOptions {
  fastPath: boolean;
  /** The output timeline is recorded (audit): the fast path looks at the file once more at the end. */
  timeline: boolean;
  /** Past this many bytes the file stops growing until the command ends (its tail comes then). */
  headBytes: number;
  pollMs: number;
  silenceMs: number;
  onPrompt: () => void;
  onProgress?: (tail: string, totalBytes: number) => void;
}

interface OutputWatch {
  onChunk(bytes: Uint8Array): void;
  /** The prompt line that triggered a stop, if any. */
  prompt(): string | undefined;
  /** When output was first and last seen, and how many chunks came (audit). */
  timeline(): OutputTimeline;
  stop(): Promise<void>;
}

/**
 * Watches a running command's output: feeds the live capture (from chunks, or on the fast path
 * by peeking at the end of the file), reports progress, and stops a command that printed a
 * prompt and then stayed silent.
 */
function watchOutput(
  ops: Pick<Operations, "stat" | "openRead">,
  path: string,
  live: OutputCapture,
  options: WatchOptions,
): OutputWatch {
  let lastChange = Date.now();
  let seenBytes = 0;
  let reported = -1;
  let promptLine: string | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const seen: OutputTimeline = { chunks: 0 };
  const sawOutput = () => {
    const now = Date.now();
    seen.firstAt ??= now;
    seen.lastAt = now;
  };

  async function peekFile(): Promise<void> {
    const size = (await ops.stat(path)).size;
    if (size <= seenBytes) return;
    const start = Math.max(seenBytes, size - PEEK_BYTES);
    live.skip(start - seenBytes);
    live.push(await readRange(ops, path, start, size));
    seenBytes = size;
    lastChange = Date.now();
    sawOutput();
  }

  async function tick(): Promise<void> {
    if (options.fastPath) await peekFile().catch(() => undefined);
    if (live.totalBytes !== reported) {
      reported = live.totalBytes;
      options.onProgress?.(sanitizeOutput(live.tail()), live.totalBytes);
    }
    // A full head is not silence: the command may be printing on, into the kept tail.
    const headFull = options.fastPath && seenBytes >= options.headBytes;
    if (promptLine === undefined && !headFull && Date.now() - lastChange >= options.silenceMs) {
      const line = detectPrompt(live.tail());
      if (line !== undefined) {
        promptLine = line;
        options.onPrompt();
      }
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, options.pollMs);
  }
  schedule();

  return {
    onChunk(bytes) {
      live.push(bytes);
      lastChange = Date.now();
      seen.chunks++;
      sawOutput();
    },
    prompt: () => promptLine,
    timeline: () => seen,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      // Output written after the last poll (the usual last line: a command prints, then exits
      // before the next poll) came between that poll and now, the command's end: seen now, so
      // the timeline keeps its stated resolution up to the last byte.
      if (options.fastPath && options.timeline) {
        const size = await ops.stat(path).then(
          (stat) => stat.size,
          () => seenBytes,
        );
        if (size > seenBytes) sawOutput();
      }
    },
  };
}
