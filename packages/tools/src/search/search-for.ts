import {
  type CallOptions,
  type FilesRequest,
  type GrepEvent,
  type GrepRequest,
  isOperationError,
  isTempFileName,
  isWriteLockName,
  type Operations,
  type SearchOperations,
} from "@tackle/operations";
import { createPortableSearch, type PortableSearchOperations } from "./portable-search.js";

/**
 * A search as the tools run it: `search` keeps the `SearchOperations` contract; `scanGrep` and
 * `scanFiles` take the number of results the caller wants instead of a hard cap. The portable
 * walk, which delivers in path order, gets it as its cap. A native engine gets none: the caller
 * stops the iteration itself when it has enough, which ends the engine's run. A native engine
 * that sorts (`sorts`) does so when the request says `sortByPath`: the caller can then stop after
 * the first results by path. Otherwise it may deliver in any order, and the caller needs every
 * result in one pass (see `collectGrepEvents`). A native search that falls back to the portable
 * walk passes the cap on to it.
 */
export interface ToolSearch {
  search: SearchOperations;
  engine: "native" | "portable";
  /** A native engine that honours `sortByPath` (`SearchOperations.sortsByPath`). */
  sorts: boolean;
  /** The same object for every call on the same engine (what `sortedFirst` remembers). */
  engineKey: object;
  scanGrep(request: GrepRequest, wanted: number, options?: CallOptions): AsyncIterable<GrepEvent>;
  scanFiles(request: FilesRequest, wanted: number, options?: CallOptions): AsyncIterable<string>;
}

/**
 * The search a tool uses in `ops`: its native one when present, else the portable walk. A native
 * search that fails with `not_supported` before its first result (an adapter that found no
 * ripgrep only when asked) hands over to the portable walk for that call.
 */
export function searchFor(ops: PortableSearchOperations & Pick<Operations, "search">): ToolSearch {
  const portable = createPortableSearch(ops);
  const native = ops.search;
  if (!native) {
    return {
      search: portable,
      engine: "portable",
      // The walk is always in path order; nothing to ask for.
      sorts: false,
      engineKey: ops,
      scanGrep: (request, wanted, options) => portable.grep({ ...request, maxMatches: wanted }, options),
      scanFiles: (request, wanted, options) => portable.files({ ...request, limit: wanted }, options),
    };
  }
  return {
    search: {
      grep: (request, options) =>
        orPortable(native.grep(request, options), () => portable.grep(request, options)),
      files: (request, options) =>
        orPortable(native.files(request, options), () => portable.files(request, options)),
    },
    engine: "native",
    // The portable walk a native search may fall back to is in path order too.
    sorts: native.sortsByPath === true,
    engineKey: native,
    scanGrep: (request, wanted, options) =>
      orPortable(native.grep(uncapped(request, "maxMatches"), options), () =>
        portable.grep({ ...request, maxMatches: wanted }, options),
      ),
    scanFiles: (request, wanted, options) =>
      orPortable(native.files(uncapped(request, "limit"), options), () =>
        portable.files({ ...request, limit: wanted }, options),
      ),
  };
}

function uncapped<T extends object>(request: T, cap: keyof T): T {
  const copy = { ...request };
  delete copy[cap];
  return copy;
}

/**
 * `native`, or the portable walk when `native` fails with `not_supported` before its first result.
 * A plain iterator rather than a generator: after the first result it hands each `next` straight
 * to the native iterator, so a search of many thousands of results pays no extra step per result.
 */
function orPortable<T>(native: AsyncIterable<T>, portable: () => AsyncIterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let current = native[Symbol.asyncIterator]();
      let started = false;
      const first = async (): Promise<IteratorResult<T>> => {
        try {
          const result = await current.next();
          started = true;
          return result;
        } catch (error) {
          if (!isOperationError(error, "not_supported")) throw error;
          started = true;
          current = portable()[Symbol.asyncIterator]();
          return current.next();
        }
      };
      return {
        next: () => (started ? current.next() : first()),
        return: async (value?: unknown) =>
          current.return ? current.return(value) : { done: true as const, value: value as T },
      };
    },
  };
}

/**
 * True when the tools leave a search result out: a path through `.git` (see {@link isInsideGit})
 * or the temp file of a write in progress or killed (`isTempFileName`), or the write lock of a
 * commit (`isWriteLockName`), which are never the model's files.
 */
export function isHiddenFromTools(relativePath: string): boolean {
  const name = relativePath.slice(relativePath.lastIndexOf("/") + 1);
  return isInsideGit(relativePath) || isTempFileName(name) || isWriteLockName(name);
}

/**
 * True when a relative POSIX path runs through a `.git` entry. The tools drop such paths from
 * any search, as a safety net: the adapters built on the shared ripgrep module of
 * @tackle/operations never return them, but a host's own `search` might (a plain `rg --glob '*'`
 * re-includes `.git`), and the portable walk never enters it.
 */
export function isInsideGit(relativePath: string): boolean {
  return relativePath === ".git" || relativePath.startsWith(".git/") || relativePath.includes("/.git/");
}
