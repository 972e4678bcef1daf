/**
 * Content hashes for the shell's workspace comparison, so a shell command's side effects carry
 * `sha256Before`/`sha256After` like a file tool's, and a rewrite that keeps a file's size and
 * mtime is still seen.
 *
 * Why hashes of the before state can be cheap: most files do not change between two calls, so
 * their hash is kept per environment and path with the size and mtime it was computed for, and
 * reused while those stay the same. A call hashes only what it has not seen in that state (the
 * whole workspace on the first call of a session, bounded; afterwards the files changed since).
 *
 * Why a rewrite with the same size and mtime is seen: a write during the command gives a file an
 * mtime no earlier than the command's start, up to the file system's timestamp granularity (a
 * clock tick locally, whole seconds over some remote file systems). Only a file whose mtime was
 * already that recent can keep it through a rewrite: such files are hashed again after the
 * command and compared. Older ones changed only if their size or mtime changed (a command that
 * sets an old mtime back on purpose stays unseen: a stated blind spot).
 */
import { createHash } from "node:crypto";
import type { AuditFileChange } from "@tackle/agent-core";
import type { Operations } from "@tackle/operations";
import {
  SNAPSHOT_HASH_MAX_FILE_BYTES,
  SNAPSHOT_HASH_MAX_TOTAL_BYTES,
  type SnapshotEntry,
  type WorkspaceSnapshot,
} from "./workspace-snapshot.js";

/**
 * How recent an mtime may be, before a command starts, for a rewrite to keep it (ms): whole
 * seconds of some file systems and SFTP, plus a margin for clocks between host and environment.
 */
export const SNAPSHOT_SAME_STAMP_WINDOW_MS = 2000;
/** Files read at once while hashing (over SSH each read is a round trip). */
const CONCURRENCY = 16;
/** Hashes kept per environment and root: a long session in a large tree must not grow without end. */
const CACHE_ENTRIES = 50_000;
/** Roots whose hashes an environment keeps (the working directories of its sessions), oldest out. */
const CACHE_ROOTS = 16;

interface KnownHash {
  size: number;
  mtimeMs: number;
  sha256: string;
}

/**
 * Known hashes per environment object, per root, by path relative to the root: the snapshot's
 * own path strings are the keys, so a lookup builds no string.
 */
const known = new WeakMap<object, Map<string, Map<string, KnownHash>>>();

function cacheOf(ops: object, root: string): Map<string, KnownHash> {
  let roots = known.get(ops);
  if (!roots) {
    roots = new Map();
    known.set(ops, roots);
  }
  let cache = roots.get(root);
  if (cache) {
    // Most recently used last.
    roots.delete(root);
  } else {
    cache = new Map();
    if (roots.size >= CACHE_ROOTS) roots.delete(roots.keys().next().value as string);
  }
  roots.set(root, cache);
  return cache;
}

/**
 * Whole snapshots hashed without a miss, with the newest mtime of their files: a snapshot handed
 * out again unchanged (see `trackedSnapshot`) needs no second look. Snapshots are never changed
 * once made.
 */
const hashedSnapshots = new WeakMap<
  WorkspaceSnapshot,
  { hashes: ReadonlyMap<string, string>; newestMtimeMs: number }
>();

/** The hashes of one snapshot, by path relative to its root, and what bounded them. */
export interface SnapshotHashes {
  hashes: ReadonlyMap<string, string>;
  /** Files hashed by reading them in this call (the rest came from earlier calls). */
  read: number;
  /** Files that should have a hash but do not: over the byte budget, or unreadable. */
  missed: number;
}

type HashOperations = Pick<Operations, "readFile" | "platform">;

/** Which files {@link hashSnapshot} hashes, and which it must read rather than take from the cache. */
export interface HashSnapshotOptions {
  /** Only these paths (relative to the snapshot's root). Default: every file. */
  only?: Iterable<string>;
  /**
   * Files with an mtime at or after this (ms) are read even when the cache has their size and
   * mtime: a rewrite may have kept both. Default: every file is read (no cache hit).
   */
  readSince?: number;
}

/**
 * Hashes every regular file of `snapshot` up to {@link SNAPSHOT_HASH_MAX_FILE_BYTES}: from the
 * environment's cache when its size and mtime are the ones hashed before and its mtime is older
 * than `readSince`, else by reading it, at most {@link SNAPSHOT_HASH_MAX_TOTAL_BYTES} in all.
 * Never throws: a file that cannot be read gets no hash.
 */
export async function hashSnapshot(
  ops: HashOperations,
  snapshot: WorkspaceSnapshot,
  options: HashSnapshotOptions = {},
): Promise<SnapshotHashes> {
  const readSince = options.readSince ?? Number.NEGATIVE_INFINITY;
  // The same snapshot again (a tracked tree that did not change): its hashes stand while every
  // file is still older than `readSince`, and nothing is looked up or read.
  const known = options.only === undefined ? hashedSnapshots.get(snapshot) : undefined;
  if (known !== undefined && known.newestMtimeMs < readSince)
    return { hashes: known.hashes, read: 0, missed: 0 };
  const cache = cacheOf(ops, snapshot.root);
  const sep = ops.platform === "win32" ? "\\" : "/";
  const hashes = new Map<string, string>();
  const toRead: { path: string; full: string; size: number; mtimeMs: number }[] = [];
  const consider = (path: string, entry: SnapshotEntry) => {
    if (entry.type !== "file" || entry.size > SNAPSHOT_HASH_MAX_FILE_BYTES) return;
    const hit = cache.get(path);
    if (hit && hit.size === entry.size && hit.mtimeMs === entry.mtimeMs && entry.mtimeMs < readSince)
      hashes.set(path, hit.sha256);
    else
      toRead.push({ path, full: `${snapshot.root}${sep}${path}`, size: entry.size, mtimeMs: entry.mtimeMs });
  };
  if (options.only === undefined) for (const [path, entry] of snapshot.entries) consider(path, entry);
  else
    for (const path of options.only) {
      const entry = snapshot.entries.get(path);
      if (entry !== undefined) consider(path, entry);
    }
  let budget = SNAPSHOT_HASH_MAX_TOTAL_BYTES;
  let missed = 0;
  let read = 0;
  const queue = toRead.filter((file) => {
    if (file.size > budget) {
      missed++;
      return false;
    }
    budget -= file.size;
    return true;
  });
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      try {
        const bytes = await ops.readFile(file.full, { maxBytes: SNAPSHOT_HASH_MAX_FILE_BYTES });
        // Changed while it was listed: its hash would belong to neither state.
        if (bytes.byteLength !== file.size) {
          missed++;
          continue;
        }
        const sha256 = createHash("sha256").update(bytes).digest("hex");
        hashes.set(file.path, sha256);
        remember(cache, file.path, { size: file.size, mtimeMs: file.mtimeMs, sha256 });
        read++;
      } catch {
        missed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  if (options.only === undefined && missed === 0) {
    let newestMtimeMs = Number.NEGATIVE_INFINITY;
    for (const entry of snapshot.entries.values())
      if (entry.type === "file") newestMtimeMs = Math.max(newestMtimeMs, entry.mtimeMs);
    hashedSnapshots.set(snapshot, { hashes, newestMtimeMs });
  }
  return { hashes, read, missed };
}

function remember(cache: Map<string, KnownHash>, path: string, hash: KnownHash): void {
  cache.delete(path);
  cache.set(path, hash);
  // Oldest first out (a Map iterates in insertion order; a re-hashed path moved to the end).
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
}

/**
 * Paths of `after` worth hashing after the command: what the size-and-mtime comparison calls
 * created or changed, and the files it calls unchanged whose mtime is recent enough (within
 * {@link SNAPSHOT_SAME_STAMP_WINDOW_MS} of `startedAt`) for a rewrite to have kept it.
 */
export function pathsToHashAfter(
  before: WorkspaceSnapshot,
  after: WorkspaceSnapshot,
  changes: readonly AuditFileChange[],
  startedAt: number,
): Set<string> {
  const paths = new Set<string>();
  for (const change of changes) if (change.change !== "removed") paths.add(change.path);
  const recent = startedAt - SNAPSHOT_SAME_STAMP_WINDOW_MS;
  for (const [path, now] of after.entries) {
    const was = before.entries.get(path);
    if (now.type === "file" && was?.type === "file" && now.mtimeMs >= recent) paths.add(path);
  }
  return paths;
}

/**
 * The comparison with hashes: each created or changed file gets the hashes known for it, and a
 * file whose size and mtime stayed but whose hash changed is `changed` too. Sorted by path.
 */
export function withContentHashes(
  changes: readonly AuditFileChange[],
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  afterSnapshot: WorkspaceSnapshot,
): AuditFileChange[] {
  const out: AuditFileChange[] = [];
  const listed = new Set<string>();
  for (const change of changes) {
    listed.add(change.path);
    const hashed: AuditFileChange = { ...change };
    const was = before.get(change.path);
    const now = after.get(change.path);
    if (was !== undefined && change.change !== "created") hashed.sha256Before = was;
    if (now !== undefined && change.change !== "removed") hashed.sha256After = now;
    out.push(hashed);
  }
  for (const [path, now] of after) {
    const was = before.get(path);
    if (listed.has(path) || was === undefined || was === now) continue;
    const size = afterSnapshot.entries.get(path)?.size ?? 0;
    out.push({
      path,
      change: "changed",
      bytesBefore: size,
      bytesAfter: size,
      sha256Before: was,
      sha256After: now,
    });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
