import { setMaxListeners } from "node:events";
import type { AuditFileChange, AuditRecorder } from "@tackle/agent-core";
import type { Operations } from "@tackle/operations";

/** Most entries a before/after snapshot lists (files and directories). */
export const SNAPSHOT_MAX_ENTRIES = 2000;
/** Longest a snapshot may take, ms; the walk stops there and says it is incomplete. */
export const SNAPSHOT_TIME_BUDGET_MS = 300;
/** Directories never walked: large, and changed by tools on their own (git, package managers). */
export const SNAPSHOT_SKIPPED_DIRECTORIES: readonly string[] = [".git", "node_modules"];
/**
 * Listings and `lstat`s in flight at once, over the whole walk (over SSH each is a round trip;
 * locally they share libuv's thread pool).
 */
const CONCURRENCY = 32;

/** Largest file a snapshot hashes; larger ones are compared by size and mtime only. */
export const SNAPSHOT_HASH_MAX_FILE_BYTES = 1024 * 1024;
/** Most bytes one snapshot reads to hash (files past it keep no hash in that call's record). */
export const SNAPSHOT_HASH_MAX_TOTAL_BYTES = 16 * 1024 * 1024;

/**
 * What a snapshot saw per path relative to the root: type, and for everything but directories
 * size and mtime. Directories are known from their parent's listing and not `lstat`ed (size and
 * mtime 0): what changes in them shows in their entries.
 */
export interface WorkspaceSnapshot {
  root: string;
  entries: Map<string, SnapshotEntry>;
  /** False when the walk stopped at the entry cap or the time budget. */
  complete: boolean;
}

/** One entry of a {@link WorkspaceSnapshot}. */
export interface SnapshotEntry {
  type: string;
  size: number;
  mtimeMs: number;
}

/** Options of {@link snapshotWorkspace}. */
export interface SnapshotOptions {
  maxEntries?: number;
  timeBudgetMs?: number;
  signal?: AbortSignal | undefined;
}

/**
 * Lists `root` through `ops` (so it works the same over SSH and in a container): type of each
 * entry, size and mtime of each non-directory, at most `maxEntries` entries and `timeBudgetMs`
 * of walking, skipping {@link SNAPSHOT_SKIPPED_DIRECTORIES}. Links are listed, not followed.
 * In one call where the environment has `listTree`; otherwise directories are listed as soon as
 * they are found and files `lstat`ed meanwhile, {@link CONCURRENCY} calls at a time (which
 * entries a walk cut by a bound still saw then depends on the order calls complete). Never
 * throws: an entry that cannot be read is left out.
 */
export async function snapshotWorkspace(
  ops: Pick<Operations, "readdir" | "lstat" | "platform" | "listTree">,
  root: string,
  options: SnapshotOptions = {},
): Promise<WorkspaceSnapshot> {
  const maxEntries = options.maxEntries ?? SNAPSHOT_MAX_ENTRIES;
  const timeBudgetMs = options.timeBudgetMs ?? SNAPSHOT_TIME_BUDGET_MS;
  if (ops.listTree !== undefined) {
    try {
      const listing = await ops.listTree(root, {
        maxEntries,
        timeBudgetMs,
        skipDirectories: SNAPSHOT_SKIPPED_DIRECTORIES,
        signal: options.signal,
      });
      const entries: WorkspaceSnapshot["entries"] = new Map();
      for (const { path, type, size, mtimeMs } of listing.entries) entries.set(path, { type, size, mtimeMs });
      return { root, entries, complete: listing.complete };
    } catch {
      // The walk below tells what it can (and fails the same way for a missing root).
    }
  }
  // The walk's calls share one signal of their own, aborted with the caller's: an adapter that
  // listens per call (SSH, Docker) never puts CONCURRENCY listeners on the caller's signal (a
  // MaxListenersExceededWarning at 11). Unlimited on this one: at most CONCURRENCY calls hold
  // listeners on it at once, each removed as its call ends.
  const walk = new AbortController();
  setMaxListeners(0, walk.signal);
  const forward = () => walk.abort(options.signal?.reason);
  if (options.signal?.aborted) forward();
  else options.signal?.addEventListener("abort", forward, { once: true });
  try {
    return await walkTree(ops, root, maxEntries, timeBudgetMs, walk.signal);
  } finally {
    options.signal?.removeEventListener("abort", forward);
  }
}

/** The walk of {@link snapshotWorkspace} for environments without `listTree`. */
async function walkTree(
  ops: Pick<Operations, "readdir" | "lstat" | "platform">,
  root: string,
  maxEntries: number,
  timeBudgetMs: number,
  signal: AbortSignal,
): Promise<WorkspaceSnapshot> {
  const deadline = Date.now() + timeBudgetMs;
  const sep = ops.platform === "win32" ? "\\" : "/";
  const entries: WorkspaceSnapshot["entries"] = new Map();
  const full = (relative: string) => (relative === "" ? root : `${root}${sep}${relative}`);
  // Directories to list and files to lstat, relative paths; directories go first (they find work).
  const directories: string[] = [""];
  const files: string[] = [];
  /** Entries found so far (listed or waiting for their lstat): the cap counts these. */
  let found = 0;
  let complete = true;
  let running = 0;

  const list = async (relative: string) => {
    let names: { name: string; type: string }[];
    try {
      names = await ops.readdir(full(relative), { signal });
    } catch {
      return;
    }
    // Sorted: a walk cut by the cap keeps the same first names of a directory.
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      if (found >= maxEntries) {
        complete = false;
        return;
      }
      found++;
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.type !== "directory") files.push(path);
      else {
        entries.set(path, { type: "directory", size: 0, mtimeMs: 0 });
        if (!SNAPSHOT_SKIPPED_DIRECTORIES.includes(entry.name)) directories.push(path);
      }
    }
  };
  const inspect = async (path: string) => {
    const stat = await ops.lstat(full(path), { signal }).catch(() => undefined);
    if (stat) entries.set(path, { type: stat.type, size: stat.size, mtimeMs: stat.mtimeMs });
  };

  await new Promise<void>((resolve) => {
    const pump = () => {
      while (running < CONCURRENCY && (directories.length > 0 || files.length > 0)) {
        if (Date.now() > deadline || signal.aborted) {
          complete = false;
          directories.length = 0;
          files.length = 0;
          break;
        }
        const directory = directories.shift();
        const work = directory !== undefined ? list(directory) : inspect(files.shift() as string);
        running++;
        void work.finally(() => {
          running--;
          pump();
        });
      }
      if (running === 0) resolve();
    };
    pump();
  });
  return { root, entries, complete };
}

/** Files and links created, changed (size or mtime) or removed between two snapshots, sorted by path. */
export function compareSnapshots(before: WorkspaceSnapshot, after: WorkspaceSnapshot): AuditFileChange[] {
  const changes: AuditFileChange[] = [];
  for (const [path, now] of after.entries) {
    if (now.type === "directory") continue;
    const was = before.entries.get(path);
    if (!was) {
      // Past the first snapshot's cap a path is unknown, not new.
      if (before.complete) changes.push({ path, change: "created", bytesAfter: now.size });
    } else if (was.size !== now.size || was.mtimeMs !== now.mtimeMs) {
      changes.push({ path, change: "changed", bytesBefore: was.size, bytesAfter: now.size });
    }
  }
  if (after.complete) {
    for (const [path, was] of before.entries) {
      if (was.type !== "directory" && !after.entries.has(path)) {
        changes.push({ path, change: "removed", bytesBefore: was.size });
      }
    }
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** What a snapshot comparison cannot see, said in the record. */
export const SNAPSHOT_BLIND_SPOTS = `Compares size and mtime of at most the listed entries under the working directory, and the content of files up to ${SNAPSHOT_HASH_MAX_FILE_BYTES / 1024 / 1024} MiB (${SNAPSHOT_HASH_MAX_TOTAL_BYTES / 1024 / 1024} MiB read per listing) whose mtime a rewrite could have kept: misses changes outside it, in .git and node_modules, past the entry cap, time budget or hashing budget, a rewrite of a larger file that keeps its size and mtime, an mtime set back on purpose, files changed and restored during the call, and changes made after the call by processes it left running.`;

/** How a shell call's comparison was bounded, besides the listing's own bounds. */
export interface ComparisonLimits {
  maxEntries: number;
  timeBudgetMs: number;
  /** Files that should have been hashed but were not (the hashing budget, or unreadable). */
  unhashed: number;
}

/** Records the workspace changes of a shell call (`files`, compared with hashes), with how the comparison was bounded. */
export function recordWorkspaceChanges(
  audit: AuditRecorder,
  before: WorkspaceSnapshot,
  after: WorkspaceSnapshot,
  files: AuditFileChange[],
  limits: ComparisonLimits,
): void {
  audit.record({
    kind: "side-effect",
    source: "shell",
    method: "snapshot",
    files,
    bounds: {
      root: before.root,
      maxEntries: limits.maxEntries,
      timeBudgetMs: limits.timeBudgetMs,
      entries: Math.max(before.entries.size, after.entries.size),
      complete: before.complete && after.complete,
      maxHashBytes: SNAPSHOT_HASH_MAX_FILE_BYTES,
      unhashed: limits.unhashed,
    },
    blindSpots: SNAPSHOT_BLIND_SPOTS,
  });
}
