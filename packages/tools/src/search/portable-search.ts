import type {
  CallOptions,
  FilesRequest,
  GrepEvent,
  GrepRequest,
  Operations,
  SearchOperations,
} from "@tackle/operations";
import { GREP_MAX_LINE_CHARS, isOperationError, throwIfAborted } from "@tackle/operations";
import { pathSyntax } from "@tackle/session";
import { grepFile } from "./grep-file.js";
import { linkedSignal } from "./linked-signal.js";
import { compilePattern } from "./regex.js";
import { type WalkedFile, walkFiles } from "./walk.js";

/** What the portable search needs from an environment. */
export type PortableSearchOperations = Pick<
  Operations,
  "platform" | "stat" | "readdir" | "readFile" | "openRead"
>;

/** Tuning of {@link createPortableSearch}. */
export interface PortableSearchOptions {
  /** Files searched at the same time (results still come in path order). Default 4. */
  concurrency?: number;
  /** See `WalkOptions.requireGit`. Default false, matching the local native search. */
  requireGit?: boolean;
}

/**
 * A `SearchOperations` built only on `readdir`, `readFile`, `openRead` and `stat`, for
 * environments without a native search. It walks like ripgrep (see `walkFiles`), matches with a
 * JavaScript RegExp (see `compilePattern`) and yields results in sorted path order, then line
 * order, so stopping after N matches always keeps the same first N.
 */
export function createPortableSearch(
  ops: PortableSearchOperations,
  options: PortableSearchOptions = {},
): SearchOperations {
  const settings: Settings = {
    concurrency: Math.max(1, options.concurrency ?? 4),
    requireGit: options.requireGit === true,
  };
  return {
    // The walk visits directories in sorted order whatever the request says.
    sortsByPath: true,
    grep: (request, callOptions) => portableGrep(ops, request, callOptions, settings),
    files: (request, callOptions) => portableFiles(ops, request, callOptions, settings),
  };
}

interface Settings {
  concurrency: number;
  requireGit: boolean;
}

async function* portableGrep(
  ops: PortableSearchOperations,
  request: GrepRequest,
  callOptions: CallOptions | undefined,
  settings: Settings,
): AsyncGenerator<GrepEvent> {
  const { concurrency } = settings;
  const outer = callOptions?.signal;
  throwIfAborted(outer, "grep");
  const regex = compilePattern(request.pattern, request);
  const context = Math.max(0, Math.floor(request.context ?? 0));
  const maxMatches = request.maxMatches ?? Number.POSITIVE_INFINITY;
  if (maxMatches <= 0) return;
  // Aborted when the consumer stops early, so searches already started end their reads.
  const local = linkedSignal(outer);
  const signal = local.signal;
  const files = targetFiles(ops, request, settings, signal)[Symbol.asyncIterator]();
  const pending: Promise<GrepEvent[] | undefined>[] = [];
  let exhausted = false;
  let matches = 0;
  const start = (file: WalkedFile) => {
    const search = grepFile(ops, {
      abs: file.abs,
      rel: file.rel,
      regex,
      context,
      maxMatches: maxMatches - matches,
      maxLineLength: request.maxLineLength ?? GREP_MAX_LINE_CHARS,
      signal,
    }).catch((error: unknown) => {
      // A file that vanished or cannot be read is skipped, as ripgrep does (it warns on stderr).
      if (isOperationError(error, "not_found", "permission_denied", "is_directory")) return undefined;
      throw error;
    });
    // Rejections are observed when the result is awaited; until then keep them quiet.
    search.catch(() => {});
    pending.push(search);
  };
  try {
    for (;;) {
      while (!exhausted && pending.length < concurrency) {
        const next = await files.next();
        if (next.done) exhausted = true;
        else start(next.value);
      }
      const search = pending.shift();
      if (search === undefined) return;
      const events = await search;
      if (events === undefined) continue;
      let lastMatchLine = 0;
      for (const event of events) {
        if (matches >= maxMatches && (event.type === "match" || event.lineNumber > lastMatchLine + context))
          return;
        if (event.type === "match") {
          matches++;
          lastMatchLine = event.lineNumber;
        }
        throwIfAborted(signal, "grep");
        yield event;
      }
      if (matches >= maxMatches) return;
    }
  } finally {
    local.abort();
    await files.return?.(undefined);
  }
}

async function* portableFiles(
  ops: PortableSearchOperations,
  request: FilesRequest,
  callOptions: CallOptions | undefined,
  settings: Settings,
): AsyncGenerator<string> {
  const signal = callOptions?.signal;
  throwIfAborted(signal, "files");
  const limit = request.limit ?? Number.POSITIVE_INFINITY;
  if (limit <= 0) return;
  let count = 0;
  for await (const file of targetFiles(ops, request, settings, signal)) {
    yield file.rel;
    if (++count >= limit) return;
  }
}

/**
 * The files a request covers: the file itself when `path` is a file (its name as the relative
 * path; ripgrep searches a file named on the command line even when ignored or off-glob), else
 * the walk under the directory, filtered by the glob.
 */
async function* targetFiles(
  ops: PortableSearchOperations,
  request: { path: string; glob?: string; includeIgnored?: boolean },
  settings: Settings,
  signal: AbortSignal | undefined,
): AsyncGenerator<WalkedFile> {
  const { path } = request;
  const stat = await ops.stat(path, { signal });
  if (stat.type !== "directory") {
    yield { rel: pathSyntax(ops.platform).basename(path), abs: path };
    return;
  }
  yield* walkFiles(ops, path, {
    signal,
    includeIgnored: request.includeIgnored === true,
    requireGit: settings.requireGit,
    ...(request.glob ? { glob: request.glob } : {}),
  });
}
