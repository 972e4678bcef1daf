import type { AuditFileChange, AuditRecorder } from "@tackle/agent-core";
import type { Operations } from "@tackle/operations";

/** Most entries a before/after snapshot lists (files and directories). */
export const SNAPSHOT_MAX_ENTRIES = 2000;
/** Longest a snapshot may take, ms; the walk stops there and says it is incomplete. */
export const SNAPSHOT_TIME_BUDGET_MS = 300;
/** Directories never walked: large, and changed by tools on their own (git, package managers). */
export const SNAPSHOT_SKIPPED_DIRECTORIES: readonly string[] = [".git", "node_modules"];
/** Entries looked at concurrently (over SSH each `lstat` is a round trip). */
const CONCURRENCY = 16;

/** What a snapshot saw: size and mtime per path relative to the root. */
export interface WorkspaceSnapshot {
  root: string;
  entries: Map<string, { type: string; size: number; mtimeMs: number }>;
  /** False when the walk stopped at the entry cap or the time budget. */
  complete: boolean;
}

/** Options of {@link snapshotWorkspace}. */
export interface SnapshotOptions {
  maxEntries?: number;
  timeBudgetMs?: number;
  signal?: AbortSignal | undefined;
}

/**
 * Lists `root` breadth first through `ops` (so it works the same over SSH and in a container):
 * type, size and mtime of each entry, at most `maxEntries` entries and `timeBudgetMs` of
 * walking, skipping {@link SNAPSHOT_SKIPPED_DIRECTORIES}. Links are listed, not followed. Never
 * throws: an entry that cannot be read is left out.
 */
export async function snapshotWorkspace(
  ops: Pick<Operations, "readdir" | "lstat" | "platform">,
  root: string,
  options: SnapshotOptions = {},
): Promise<WorkspaceSnapshot> {
  const maxEntries = options.maxEntries ?? SNAPSHOT_MAX_ENTRIES;
  const deadline = Date.now() + (options.timeBudgetMs ?? SNAPSHOT_TIME_BUDGET_MS);
  const sep = ops.platform === "win32" ? "\\" : "/";
  const entries: WorkspaceSnapshot["entries"] = new Map();
  const queue: string[] = [""];
  let complete = true;
  while (queue.length > 0) {
    if (Date.now() > deadline || entries.size >= maxEntries || options.signal?.aborted) {
      complete = false;
      break;
    }
    const relative = queue.shift() as string;
    const dir = relative === "" ? root : `${root}${sep}${relative}`;
    let names: { name: string; type: string }[];
    try {
      names = await ops.readdir(dir, { signal: options.signal });
    } catch {
      continue;
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (let i = 0; i < names.length; i += CONCURRENCY) {
      if (Date.now() > deadline || entries.size >= maxEntries) {
        complete = false;
        break;
      }
      const batch = names.slice(i, i + CONCURRENCY);
      const stats = await Promise.all(
        batch.map((entry) =>
          ops.lstat(`${dir}${sep}${entry.name}`, { signal: options.signal }).catch(() => undefined),
        ),
      );
      batch.forEach((entry, index) => {
        const stat = stats[index];
        if (!stat || entries.size >= maxEntries) return;
        const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
        entries.set(path, { type: stat.type, size: stat.size, mtimeMs: stat.mtimeMs });
        if (stat.type === "directory" && !SNAPSHOT_SKIPPED_DIRECTORIES.includes(entry.name)) queue.push(path);
      });
    }
    if (!complete) break;
  }
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
export const SNAPSHOT_BLIND_SPOTS =
  "Compares size and mtime of at most the listed entries under the working directory: misses changes outside it, in .git and node_modules, past the entry cap or time budget, changes that keep size and mtime (mtime resolution is 1 s over SFTP), files changed and restored during the call, and changes made after the call by processes it left running.";

/** Records the workspace changes of a shell call, with how the comparison was bounded. */
export function recordWorkspaceChanges(
  audit: AuditRecorder,
  before: WorkspaceSnapshot,
  after: WorkspaceSnapshot,
  limits: { maxEntries: number; timeBudgetMs: number },
): void {
  audit.record({
    kind: "side-effect",
    source: "shell",
    method: "snapshot",
    files: compareSnapshots(before, after),
    bounds: {
      root: before.root,
      maxEntries: limits.maxEntries,
      timeBudgetMs: limits.timeBudgetMs,
      entries: Math.max(before.entries.size, after.entries.size),
      complete: before.complete && after.complete,
    },
    blindSpots: SNAPSHOT_BLIND_SPOTS,
  });
}
