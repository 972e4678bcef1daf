import { accessSync, constants, lstatSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import {
  type CallOptions,
  type FilesRequest,
  type GrepEvent,
  type GrepRequest,
  notRegularFileError,
  OperationError,
  type SearchOperations,
  toOperationError,
} from "@tackle/operations";
import {
  filePathsOf,
  grepEventsOf,
  PARENT_IGNORE_NAMES,
  planFiles,
  planGrep,
  type RipgrepPlan,
  type RipgrepTarget,
} from "@tackle/operations/ripgrep";
import { checkPath } from "./guard.js";
import { ripgrepBatches } from "./ripgrep-process.js";
import type { Spawner } from "./spawner/spawner.js";

/** How rg prints paths here: Windows separators are turned into `/`. */
const PLATFORM = sep === "\\" ? "win32" : "posix";

/** Path of the ripgrep binary shipped by `@vscode/ripgrep` (its platform package). */
export async function bundledRgPath(): Promise<string> {
  try {
    return (await import("@vscode/ripgrep")).rgPath;
  } catch (error) {
    throw new OperationError("not_supported", "search: @vscode/ripgrep ships no binary for this platform", {
      operation: "search",
      cause: error,
    });
  }
}

/** The ripgrep binary (looked up on first use) and how to start it. */
interface Ripgrep {
  binary: () => Promise<string>;
  spawner: Spawner;
}

/**
 * `search` on ripgrep: `rgPath` when the host passes one, else the bundled binary, started by
 * `spawner` (the adapter's: in this process or through the spawn helper).
 */
export function createRipgrepSearch(rgPath: string | undefined, spawner: Spawner): SearchOperations {
  // Looked up once: the module is loaded after the first call, but each `import()` still costs
  // a resolution and a few turns of the event loop on every search.
  let path: Promise<string> | undefined;
  const binary: Ripgrep = {
    binary: () => {
      path ??= rgPath ? Promise.resolve(rgPath) : bundledRgPath();
      return path;
    },
    spawner,
  };
  return {
    // planGrep/planFiles pass `--sort path` for `sortByPath`.
    sortsByPath: true,
    grep: (request, options) => grep(binary, request, options),
    files: (request, options) => files(binary, request, options),
  };
}

function grep(binary: Ripgrep, request: GrepRequest, options: CallOptions = {}): AsyncIterable<GrepEvent> {
  return startedOnFirstNext(async () => {
    const root = searchRoot(request.path, "grep", options.signal);
    const plan = planGrep(request, root.target);
    if (plan.limit <= 0) return undefined;
    return grepEventsOf(
      await run(binary, plan, root, "grep", request.path, options),
      plan,
      options.signal,
      PLATFORM,
    );
  });
}

function files(binary: Ripgrep, request: FilesRequest, options: CallOptions = {}): AsyncIterable<string> {
  return startedOnFirstNext(async () => {
    const root = searchRoot(request.path, "files", options.signal);
    const plan = planFiles(request, root.target);
    if (plan.limit <= 0) return undefined;
    return filePathsOf(
      await run(binary, plan, root, "files", request.path, options),
      plan,
      options.signal,
      PLATFORM,
    );
  });
}

/**
 * The results of the iterable `start` resolves to (none when it resolves to undefined), started
 * by the first `next()` as a generator would be. A plain iterator rather than an `async
 * function*` with `yield*`: after the start it hands each `next` straight to the inner one, so a
 * listing of many thousands of paths pays no extra step per result.
 */
function startedOnFirstNext<T>(start: () => Promise<AsyncIterable<T> | undefined>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let inner: AsyncIterator<T> | undefined;
      let started: Promise<void> | undefined;
      const done: IteratorResult<T> = { done: true, value: undefined };
      const begin = async () => {
        inner = (await start())?.[Symbol.asyncIterator]();
      };
      return {
        next() {
          if (inner) return inner.next();
          started ??= begin();
          return started.then(() => (inner ? inner.next() : done));
        },
        async return() {
          started ??= Promise.resolve();
          await started.catch(() => {});
          return inner?.return ? inner.return() : done;
        },
      };
    },
  };
}

async function run<T>(
  binary: Ripgrep,
  plan: RipgrepPlan<T>,
  root: SearchRoot,
  operation: string,
  path: string,
  options: CallOptions,
) {
  return ripgrepBatches({
    rgPath: await binary.binary(),
    spawner: binary.spawner,
    plan,
    operation,
    path,
    cwd: root.cwd,
    signal: options.signal,
  });
}

/** Where rg runs and what it is given (see `RipgrepTarget`): the directory, or a file's parent. */
interface SearchRoot {
  cwd: string;
  target: RipgrepTarget;
}

/**
 * Synchronous, like {@link parentIgnoreFiles}: a `stat` and an `access` of one path take
 * microseconds, while two round trips through the thread pool cost a loaded machine
 * milliseconds, a good part of a paged search's whole time.
 */
function searchRoot(path: string, operation: string, signal: AbortSignal | undefined): SearchRoot {
  checkPath(path, operation);
  if (signal?.aborted) throw new OperationError("aborted", `${operation} aborted`, { operation });
  let isDirectory: boolean;
  try {
    const stats = statSync(path);
    // rg reads a file it is given by name whatever its type: a FIFO would block it for good.
    if (!stats.isDirectory() && !stats.isFile()) throw notRegularFileError(operation, path);
    isDirectory = stats.isDirectory();
    // rg skips an unreadable path with a message and exit code 2 like any partial failure; the
    // root itself being unreadable is the caller's error, so check it here.
    accessSync(path, isDirectory ? constants.R_OK | constants.X_OK : constants.R_OK);
  } catch (error) {
    throw toOperationError(error, { operation, path });
  }
  return isDirectory
    ? { cwd: path, target: { kind: "directory", parentIgnoreFiles: parentIgnoreFiles(path) } }
    : { cwd: dirname(path), target: { kind: "file", name: basename(path) } };
}

/**
 * True when a directory above the real path of `dir` (rg resolves it to find the parents it
 * reads) holds an ignore file or `.git` (see `PARENT_IGNORE_NAMES`), or when that cannot be told:
 * then rg looks for parent rules itself. Synchronous: a few `lstat`s of cached directory entries
 * take microseconds, while each round trip through the thread pool costs a loaded machine
 * milliseconds, the whole time of a paged search (see `tree-listing.ts` for the same choice).
 */
function parentIgnoreFiles(dir: string): boolean {
  try {
    for (let at = realpathSync(dir), up = dirname(at); up !== at; at = up, up = dirname(up)) {
      for (const name of PARENT_IGNORE_NAMES) {
        if (lstatSync(join(up, name), { throwIfNoEntry: false }) !== undefined) return true;
      }
    }
    return false;
  } catch {
    return true;
  }
}
