// An Operations adapter of your own: this one wraps any other adapter and reports every call
// (method, path, duration, error code) — a log of what the tools did to an environment. It keeps
// the contract by delegating each method unchanged, which the conformance kit checks.
import { isOperationError, type Operations, type SearchOperations } from "@tackle/operations";

/** One call an adapter answered. */
export interface RecordedCall {
  method: string;
  /** The path (or command) the call was about. */
  target: string;
  ms: number;
  /** The `OperationError` code when the call failed. */
  code?: string;
}

/** `inner`, with every call reported to `record` after it settles. */
export function createRecordingOperations(
  inner: Operations,
  record: (call: RecordedCall) => void,
): Operations {
  // One helper for every promise-returning method: time it, report it, pass the outcome through.
  async function timed<T>(method: string, target: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const result = await run();
      record({ method, target, ms: performance.now() - started });
      return result;
    } catch (error) {
      const code = isOperationError(error) ? error.code : "unknown";
      record({ method, target, ms: performance.now() - started, code });
      throw error; // unchanged: callers branch on its code
    }
  }

  // Streams are reported when they end (or fail): the duration is the whole read.
  async function* streamed<T>(method: string, target: string, source: AsyncIterable<T>): AsyncIterable<T> {
    const started = performance.now();
    let code: string | undefined;
    try {
      yield* source;
    } catch (error) {
      code = isOperationError(error) ? error.code : "unknown";
      throw error;
    } finally {
      record({ method, target, ms: performance.now() - started, ...(code ? { code } : {}) });
    }
  }

  // Offer search only when the inner adapter does: an adapter without native search must leave
  // `search` undefined (the tools then walk the tree with readdir), and the kit checks that.
  const search: SearchOperations | undefined = inner.search && {
    grep: (request, options) => streamed("search.grep", request.path, inner.search!.grep(request, options)),
    files: (request, options) =>
      streamed("search.files", request.path, inner.search!.files(request, options)),
  };

  return {
    id: `recorded+${inner.id}`,
    platform: inner.platform,
    ...(inner.homeDir !== undefined ? { homeDir: inner.homeDir } : {}),
    stat: (path, options) => timed("stat", path, () => inner.stat(path, options)),
    lstat: (path, options) => timed("lstat", path, () => inner.lstat(path, options)),
    realpath: (path, options) => timed("realpath", path, () => inner.realpath(path, options)),
    readlink: (path, options) => timed("readlink", path, () => inner.readlink(path, options)),
    readFile: (path, options) => timed("readFile", path, () => inner.readFile(path, options)),
    openRead: (path, options) => streamed("openRead", path, inner.openRead(path, options)),
    writeFile: (path, data, options) => timed("writeFile", path, () => inner.writeFile(path, data, options)),
    mkdir: (path, options) => timed("mkdir", path, () => inner.mkdir(path, options)),
    readdir: (path, options) => timed("readdir", path, () => inner.readdir(path, options)),
    remove: (path, options) => timed("remove", path, () => inner.remove(path, options)),
    symlink: (target, path, options) => timed("symlink", path, () => inner.symlink(target, path, options)),
    rename: (from, to, options) => timed("rename", from, () => inner.rename(from, to, options)),
    chmod: (path, mode, options) => timed("chmod", path, () => inner.chmod(path, mode, options)),
    exec: (command, options) => timed("exec", command, () => inner.exec(command, options)),
    ...(search ? { search } : {}),
    // Optional like search: offered only when the inner adapter lists trees in one call.
    ...(inner.listTree
      ? { listTree: (root, options) => timed("listTree", root, () => inner.listTree!(root, options)) }
      : {}),
    dispose: async () => {
      await inner.dispose?.();
    },
  };
}
