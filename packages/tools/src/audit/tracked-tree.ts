import { type SessionKey, type SessionState, sessionKey } from "@tackle/extensions";
import type { Operations, TreeWatch } from "@tackle/operations";
import {
  SNAPSHOT_SKIPPED_DIRECTORIES,
  type SnapshotOptions,
  snapshotWorkspace,
  type WorkspaceSnapshot,
} from "./workspace-snapshot.js";

type SnapshotOperations = Pick<Operations, "readdir" | "lstat" | "platform" | "listTree" | "watchTree">;

/**
 * The last snapshot of one root and the environment's watch on it: what a session's next
 * snapshot of that root starts from, so it looks again at the changed paths only. The snapshot
 * is never changed once handed out: changes go into a copy, and a tree that did not change
 * hands out the same object again.
 */
interface TrackedTree {
  root: string;
  snapshot: WorkspaceSnapshot;
  watch: TreeWatch;
}

/** Where a session keeps its {@link TrackedTree} (one root: the last one snapshotted). */
const TRACKED_TREE: SessionKey<TrackedTree> = sessionKey<TrackedTree>("audit.tracked-tree");

/**
 * A snapshot of `root` as {@link snapshotWorkspace} takes it. Where the environment can watch a
 * tree (`watchTree`: the local adapter), the session keeps the last snapshot of the root and a
 * watch on it, and the next snapshot looks again only at the paths the watch reports: a changed
 * file is `lstat`ed, a new or changed directory listed whole (and watched); a removed one drops
 * what was under it. The result is what a new listing would give (the tests compare the two);
 * a watch that lost track, a root that changed, or a listing cut by a bound lists it all again.
 */
export async function trackedSnapshot(
  ops: SnapshotOperations,
  state: SessionState | undefined,
  root: string,
  options: SnapshotOptions & { maxEntries: number },
): Promise<WorkspaceSnapshot> {
  const tracked = state?.get(TRACKED_TREE);
  if (tracked !== undefined) {
    if (tracked.root === root) {
      const updated = await bringUpToDate(ops, tracked, options);
      if (updated !== undefined) {
        tracked.snapshot = updated;
        return updated;
      }
    }
    tracked.watch.close();
    state?.delete(TRACKED_TREE);
  }
  // A turn of the event loop first, as the watch's `changes()` takes one: file operations the
  // caller started just before are under way when the listing runs.
  await nextTurn();
  const snapshot = await snapshotWorkspace(ops, root, options);
  if (state === undefined || ops.watchTree === undefined || !snapshot.complete) return snapshot;
  try {
    const watch = ops.watchTree(root, { directories: enteredDirectories(snapshot) });
    state.set(TRACKED_TREE, { root, snapshot, watch });
  } catch {
    // Not watchable (gone, or out of watches): this session lists it each time.
  }
  return snapshot;
}

/** Ends the session's watch (its context's `dispose()` calls this). */
export function closeTrackedTree(state: SessionState): void {
  state.get(TRACKED_TREE)?.watch.close();
  state.delete(TRACKED_TREE);
}

/**
 * The tracked snapshot with the watch's changes applied (a new object when there were any);
 * undefined when it cannot be brought up to date (the watch lost track, or the tree grew past
 * the listing's bound).
 */
async function bringUpToDate(
  ops: SnapshotOperations,
  tracked: TrackedTree,
  options: SnapshotOptions & { maxEntries: number },
): Promise<WorkspaceSnapshot | undefined> {
  const changes = await tracked.watch.changes();
  if (changes.lost) return undefined;
  if (changes.paths.length === 0) return tracked.snapshot;
  const entries = new Map(tracked.snapshot.entries);
  const sep = ops.platform === "win32" ? "\\" : "/";
  const full = (path: string) => `${tracked.root}${sep}${path.replaceAll("/", sep)}`;
  // Parents first: a directory listed again covers the paths under it.
  const paths = [...new Set(changes.paths)].sort();
  const relisted: string[] = [];
  for (const path of paths) {
    if (relisted.some((directory) => path.startsWith(`${directory}/`))) continue;
    if (!isEntered(parentOf(path))) continue;
    const stat = await ops.lstat(full(path), { signal: options.signal }).catch(() => undefined);
    const was = entries.get(path);
    if (was?.type === "directory" || stat?.type === "directory") removeUnder(entries, path);
    if (stat === undefined) {
      entries.delete(path);
      continue;
    }
    if (stat.type !== "directory") {
      entries.set(path, { type: stat.type, size: stat.size, mtimeMs: stat.mtimeMs });
      continue;
    }
    entries.set(path, { type: "directory", size: 0, mtimeMs: 0 });
    if (!isEntered(path)) continue;
    const below = await snapshotWorkspace(ops, full(path), {
      ...options,
      maxEntries: Math.max(0, options.maxEntries - entries.size),
    });
    if (!below.complete) return undefined;
    const directories = [path];
    for (const [inner, entry] of below.entries) {
      entries.set(`${path}/${inner}`, entry);
      if (entry.type === "directory" && isEntered(`${path}/${inner}`)) directories.push(`${path}/${inner}`);
    }
    tracked.watch.watch(directories);
    relisted.push(path);
  }
  if (entries.size > options.maxEntries) return undefined;
  return { root: tracked.root, entries, complete: true };
}

/** The directories a snapshot entered (its root and every directory not skipped or under one). */
function enteredDirectories(snapshot: WorkspaceSnapshot): string[] {
  const directories = [""];
  for (const [path, entry] of snapshot.entries) {
    if (entry.type === "directory" && isEntered(path)) directories.push(path);
  }
  return directories;
}

/**
 * True for a directory a listing enters: none of its path's names is skipped (a skipped
 * directory is an entry of its parent, listed but not entered). `""` is the root.
 */
function isEntered(directory: string): boolean {
  return (
    directory === "" || !directory.split("/").some((name) => SNAPSHOT_SKIPPED_DIRECTORIES.includes(name))
  );
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

function removeUnder(entries: WorkspaceSnapshot["entries"], directory: string): void {
  const prefix = `${directory}/`;
  for (const path of entries.keys()) if (path.startsWith(prefix)) entries.delete(path);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
