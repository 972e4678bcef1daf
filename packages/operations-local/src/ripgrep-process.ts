import type { Readable } from "node:stream";
import { OperationError, throwIfAborted, toOperationError } from "@tackle/operations";
import { RIPGREP_STDERR_LIMIT, type RipgrepPlan, ripgrepExitError } from "@tackle/operations/ripgrep";
import type { SpawnedProcess, Spawner } from "./spawner/spawner.js";

/** One ripgrep run of a plan. */
export interface RipgrepRun<T> {
  rgPath: string;
  spawner: Spawner;
  plan: RipgrepPlan<T>;
  signal: AbortSignal | undefined;
  operation: string;
  path: string;
  /** Directory rg runs in: globs with a `/` are matched relative to it. */
  cwd: string;
}

/**
 * Runs ripgrep and yields its output records as they arrive, in batches (the complete records
 * of each chunk read from rg): one async step per chunk instead of per record keeps a listing
 * of many thousands of paths close to raw rg speed. Leaving the loop early (the caller's limit
 * was reached) or an abort kills rg at once instead of draining it. Exit code 1 (nothing found)
 * is not an error; exit code 2 with no output is (see `ripgrepExitError`).
 */
export async function* ripgrepBatches<T>(run: RipgrepRun<T>): AsyncGenerator<T[]> {
  const { signal, operation, path } = run;
  throwIfAborted(signal, operation);
  const child = await spawnRipgrep(run);
  const stdout = child.stdout as Readable;
  const stderrPipe = child.stderr as Readable;
  let stderr = "";
  stderrPipe.setEncoding("utf8");
  stderrPipe.on("data", (text: string) => {
    if (stderr.length < RIPGREP_STDERR_LIMIT) stderr += text;
  });
  const closed = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = () => child.kill("SIGKILL");
  signal?.addEventListener("abort", kill, { once: true });
  let records = 0;
  try {
    const reader = run.plan.reader();
    for await (const chunk of chunksOf(stdout)) {
      const parts = reader.push(chunk);
      if (parts.length === 0) continue;
      throwIfAborted(signal, operation);
      records += parts.length;
      yield parts;
    }
    const rest = reader.end();
    if (rest.length > 0) {
      records += rest.length;
      yield rest;
    }
    const exitCode = await closed;
    throwIfAborted(signal, operation);
    if (run.spawner.lost(child)) {
      throw new OperationError(
        "connection_lost",
        `${operation}: the spawn helper process exited while ripgrep ran; search again`,
        {
          operation,
          path,
        },
      );
    }
    const failure = ripgrepExitError({
      kind: run.plan.kind,
      exitCode,
      stderr,
      records,
      operation,
      path,
      rgPath: run.rgPath,
    });
    if (failure) throw failure;
  } finally {
    signal?.removeEventListener("abort", kill);
    if (child.exitCode === null && child.signalCode === null) {
      // Stopped early (limit reached, consumer left, abort): rg must not outlive the call.
      kill();
      stdout.destroy();
      stderrPipe.destroy();
      await exited;
    }
  }
}

async function spawnRipgrep<T>(run: RipgrepRun<T>): Promise<SpawnedProcess> {
  try {
    return await run.spawner.spawn({
      file: run.rgPath,
      args: run.plan.args,
      cwd: run.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    throw (error as NodeJS.ErrnoException).code === "ENOENT"
      ? new OperationError("not_supported", `${run.operation}: ripgrep not found at ${run.rgPath}`, {
          operation: run.operation,
          cause: error,
        })
      : toOperationError(error, { operation: run.operation });
  }
}

/**
 * The chunks of a child's stdout as they arrive (all that is buffered at each step), read with
 * `read()` and paused in between. Not the stream's own async iterator: leaving that one early
 * destroys the stream with a fresh `AbortError`, a stack trace built every time a tool stops rg
 * at its page. Here the caller ends the stream itself (see {@link ripgrepBatches}).
 */
async function* chunksOf(stream: Readable): AsyncGenerator<Buffer> {
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: { error: Error } | undefined;
  const onReadable = () => wake?.();
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  const onError = (error: Error) => {
    failure ??= { error };
    wake?.();
  };
  stream.on("readable", onReadable);
  stream.on("end", onEnd);
  stream.on("close", onEnd);
  stream.on("error", onError);
  try {
    for (;;) {
      const chunk = stream.read() as Buffer | null;
      if (chunk !== null) {
        yield chunk;
        continue;
      }
      if (failure) throw failure.error;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    stream.off("readable", onReadable);
    stream.off("end", onEnd);
    stream.off("close", onEnd);
    stream.off("error", onError);
  }
}
