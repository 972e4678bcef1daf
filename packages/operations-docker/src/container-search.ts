import { posix } from "node:path";
import {
  type CallOptions,
  type FilesRequest,
  type GrepEvent,
  type GrepRequest,
  notRegularFileError,
  type SearchOperations,
  throwIfAborted,
} from "@tackle/operations";
import type { ScriptFiles as ContainerFiles } from "@tackle/operations/container-scripts";
import {
  filePathsOf,
  grepEventsOf,
  planFiles,
  planGrep,
  RecordSplitter,
  RIPGREP_STDERR_LIMIT,
  type RipgrepPlan,
  type RipgrepTarget,
  ripgrepExitError,
} from "@tackle/operations/ripgrep";
import type { ContainerClient } from "./container-client.js";

/**
 * Starts rg through `sh` so its pid comes first on stdout (`<pid>\n`): stopping early (a limit
 * reached, an abort) then ends rg inside the container with a second exec, instead of leaving
 * it to search on after the stream was closed.
 */
const LAUNCH = 'echo "$$"; exec "$@"';

/**
 * `search` with ripgrep running inside the container (`rgPath` is its path there). Results,
 * paths and error codes follow the same rules as the local adapter's search.
 */
export function createContainerSearch(
  client: ContainerClient,
  files: ContainerFiles,
  rgPath: string,
): SearchOperations {
  return {
    // planGrep/planFiles pass `--sort path` for `sortByPath`.
    sortsByPath: true,
    grep: (request, options) => grep(client, files, rgPath, request, options),
    files: (request, options) => listFiles(client, files, rgPath, request, options),
  };
}

async function* grep(
  client: ContainerClient,
  files: ContainerFiles,
  rgPath: string,
  request: GrepRequest,
  options: CallOptions = {},
): AsyncGenerator<GrepEvent> {
  const root = await searchRoot(files, request.path, "grep", options.signal);
  const plan = planGrep(request, root.target);
  if (plan.limit <= 0) return;
  const run = { rgPath, plan, cwd: root.cwd, operation: "grep", path: request.path, signal: options.signal };
  yield* grepEventsOf(ripgrepBatches(client, run), plan, options.signal);
}

async function* listFiles(
  client: ContainerClient,
  files: ContainerFiles,
  rgPath: string,
  request: FilesRequest,
  options: CallOptions = {},
): AsyncGenerator<string> {
  const root = await searchRoot(files, request.path, "files", options.signal);
  const plan = planFiles(request, root.target);
  if (plan.limit <= 0) return;
  const run = { rgPath, plan, cwd: root.cwd, operation: "files", path: request.path, signal: options.signal };
  yield* filePathsOf(ripgrepBatches(client, run), plan, options.signal);
}

/** One rg run of a plan inside the container. */
interface ContainerRun<T> {
  rgPath: string;
  plan: RipgrepPlan<T>;
  cwd: string;
  operation: string;
  /** The request path, for errors. */
  path: string;
  signal: AbortSignal | undefined;
}

/**
 * Runs rg in the container and yields its output records, one batch per frame. Exit code 1
 * (nothing found) is not an error; a refused request is (see `ripgrepExitError`). Leaving early
 * (the caller's limit, an abort) stops rg in the container.
 */
async function* ripgrepBatches<T>(client: ContainerClient, run: ContainerRun<T>): AsyncGenerator<T[]> {
  const { signal, operation, path } = run;
  throwIfAborted(signal, operation);
  const process = await client.start(["sh", "-c", LAUNCH, "sh", run.rgPath, ...run.plan.args], {
    operation,
    path,
    workdir: run.cwd,
  });
  const onAbort = () => process.detach();
  signal?.addEventListener("abort", onAbort, { once: true });
  // The first stdout line is the pid (see LAUNCH); rg's records follow.
  const pidLine = new RecordSplitter("\n");
  const reader = run.plan.reader();
  let pid: string | undefined;
  let stderr = "";
  let records = 0;
  let finished = false;
  const stderrText = new TextDecoder();
  try {
    try {
      for await (const frame of process.frames) {
        if (frame.stream === "stderr") {
          if (stderr.length < RIPGREP_STDERR_LIMIT)
            stderr += stderrText.decode(frame.bytes, { stream: true });
          continue;
        }
        let bytes = frame.bytes;
        if (pid === undefined) {
          const newline = bytes.indexOf(0x0a);
          if (newline === -1) {
            pidLine.push(bytes);
            continue;
          }
          pid = pidLine.push(bytes.subarray(0, newline + 1))[0];
          bytes = bytes.subarray(newline + 1);
        }
        const batch = reader.push(bytes);
        if (batch.length === 0) continue;
        records += batch.length;
        yield batch;
      }
    } catch (error) {
      throwIfAborted(signal, operation);
      throw client.fail(error, operation, path);
    }
    throwIfAborted(signal, operation);
    const rest = reader.end();
    if (rest.length > 0) {
      records += rest.length;
      yield rest;
    }
    finished = true;
    const exitCode = (await process.exitCode()) ?? null;
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
    signal?.removeEventListener("abort", onAbort);
    process.detach();
    if (!finished && pid !== undefined && /^\d+$/.test(pid)) {
      // Best effort: rg ends at once on TERM; a failure here must not mask the caller's outcome.
      await client.run(["kill", "-TERM", pid], { operation }).catch(() => undefined);
    }
  }
}

/** Where rg runs and what it is given (see `RipgrepTarget`): the directory, or a file's parent. */
interface SearchRoot {
  cwd: string;
  target: RipgrepTarget;
}

async function searchRoot(
  files: ContainerFiles,
  path: string,
  operation: string,
  signal: AbortSignal | undefined,
): Promise<SearchRoot> {
  throwIfAborted(signal, operation);
  const info = await files.stat(path, signal ? { signal } : {});
  // rg reads a file it is given by name whatever its type: a FIFO would block it for good.
  if (info.type !== "directory" && info.type !== "file") throw notRegularFileError(operation, path);
  return info.type === "directory"
    ? { cwd: path, target: { kind: "directory" } }
    : { cwd: posix.dirname(path), target: { kind: "file", name: posix.basename(path) } };
}
