import type { DirEntry, Operations } from "@tackle/operations";
import { isOperationError, throwIfAborted } from "@tackle/operations";
import { pathSyntax } from "@tackle/session";
import { compareCodePoints } from "./compare-paths.js";
import { compileGlobExclusion } from "./glob.js";
import { emptyFrame, loadAncestorFrames, readFrame } from "./ignore-frames.js";
import { type IgnoreFrame, isIgnored } from "./ignore-rules.js";
import { linkedSignal } from "./linked-signal.js";

/** What the portable walk needs from an environment. */
export type WalkOperations = Pick<Operations, "platform" | "readdir" | "readFile">;

/** Options of {@link walkFiles}. */
export interface WalkOptions {
  signal?: AbortSignal;
  /** List files that ignore files exclude too (`.git` stays excluded). */
  includeIgnored?: boolean;
  /**
   * Glob that narrows the files (see `compileGlobExclusion`); it never takes a file or a
   * directory the ignore rules skip.
   */
  glob?: string;
  /**
   * Honour `.gitignore` only inside a git repository, scoped to the nearest one (ripgrep's
   * default). Default false: every `.gitignore` counts, as with `rg --no-require-git`, which the
   * local native search runs.
   */
  requireGit?: boolean;
  /** Directory listings fetched ahead of the walk, for environments where each call is a round trip. */
  prefetch?: number;
}

/** A file the walk found. */
export interface WalkedFile {
  /** Relative to the walk root, POSIX separators. */
  rel: string;
  /** Absolute, in the environment's syntax. */
  abs: string;
}

const DEFAULT_PREFETCH = 8;

interface LoadedDirectory {
  entries: DirEntry[];
  frame: IgnoreFrame;
}

/**
 * Yields the files under `root` in sorted walk order (see `comparePaths`), the way ripgrep's
 * walk (`--hidden --glob '!.git'`) chooses them: hidden files included, entries named `.git`
 * excluded whatever the glob says, symbolic links not followed (neither files nor directories, as
 * ripgrep without `-L`), ignore files at every level, including those in the directories above
 * `root` (see `isIgnored`), and the glob, which only ever leaves more out (see
 * `compileGlobExclusion`).
 */
export async function* walkFiles(
  ops: WalkOperations,
  root: string,
  options: WalkOptions = {},
): AsyncGenerator<WalkedFile> {
  const local = linkedSignal(options.signal);
  const { signal } = local;
  const flavor = pathSyntax(ops.platform);
  const useIgnore = options.includeIgnored !== true;
  const requireGit = options.requireGit === true;
  const excludes = options.glob ? compileGlobExclusion(options.glob) : undefined;
  const inFlight = new Map<string, Promise<LoadedDirectory>>();
  const limit = options.prefetch ?? DEFAULT_PREFETCH;
  const load = (abs: string, rel: string): Promise<LoadedDirectory> => {
    const pending = inFlight.get(abs);
    if (pending) {
      inFlight.delete(abs);
      return pending;
    }
    return loadDirectory(ops, abs, rel, useIgnore, signal);
  };
  const prefetch = (abs: string, rel: string) => {
    if (inFlight.size >= limit || inFlight.has(abs)) return;
    const promise = loadDirectory(ops, abs, rel, useIgnore, signal);
    // A prefetched listing may never be awaited (the caller stopped early): keep its failure quiet.
    promise.catch(() => {});
    inFlight.set(abs, promise);
  };

  // Depth-first pre-order with each directory's entries sorted by name, files and directories
  // interleaved (`b/x` comes between `a.txt` and `c.txt`), which is the order of `comparePaths`.
  type Item = { abs: string; rel: string; frames: IgnoreFrame[]; isDir: boolean };
  const stack: Item[] = [];
  try {
    const ancestors = useIgnore ? await loadAncestorFrames(ops, root, signal) : [];
    stack.push({ abs: root, rel: "", frames: ancestors, isDir: true });
    while (stack.length > 0) {
      throwIfAborted(signal);
      const item = stack.pop()!;
      if (!item.isDir) {
        yield { rel: item.rel, abs: item.abs };
        continue;
      }
      let loaded: LoadedDirectory;
      try {
        loaded = await load(item.abs, item.rel);
      } catch (error) {
        // ripgrep reports an unreadable directory on stderr and goes on; so does the walk.
        if (item.rel !== "" && isOperationError(error, "permission_denied", "not_found", "not_directory"))
          continue;
        throw error;
      }
      const frames = useIgnore ? [...item.frames, loaded.frame] : item.frames;
      const children: Item[] = [];
      for (const entry of loaded.entries) {
        if (entry.name === ".git") continue;
        if (entry.type !== "file" && entry.type !== "directory") continue;
        const rel = item.rel === "" ? entry.name : `${item.rel}/${entry.name}`;
        const isDir = entry.type === "directory";
        if (excludes?.(rel, isDir)) continue;
        if (useIgnore && isIgnored(frames, rel, isDir, requireGit)) continue;
        children.push({ abs: flavor.join(item.abs, entry.name), rel, frames, isDir });
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
      for (const child of children) if (child.isDir) prefetch(child.abs, child.rel);
    }
  } finally {
    // Listings fetched ahead and never used stop here.
    local.abort();
    inFlight.clear();
  }
}

/** Lists a directory (sorted by name) and parses the ignore files it holds. */
async function loadDirectory(
  ops: WalkOperations,
  abs: string,
  rel: string,
  useIgnore: boolean,
  signal: AbortSignal | undefined,
): Promise<LoadedDirectory> {
  const entries = await ops.readdir(abs, { signal });
  entries.sort((a, b) => compareCodePoints(a.name, b.name));
  const strip = rel === "" ? 0 : rel.length + 1;
  const frame = useIgnore ? await readFrame(ops, abs, entries, { strip, prefix: "" }, signal) : emptyFrame();
  return { entries, frame };
}
