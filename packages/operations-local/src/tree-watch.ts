import { existsSync, type FSWatcher, watch } from "node:fs";
import { basename } from "node:path";
import {
  type TreeChanges,
  type TreeWatch,
  toOperationError,
  type WatchTreeOptions,
} from "@tackle/operations";
import { checkPath } from "./guard.js";

/**
 * Most directories one watch holds (one inotify watch each): past it the watch is lost and its
 * user lists the tree instead. A snapshot of the audit lists at most 2,000 entries, and a
 * system's default budget of watches is shared by every process of its user.
 */
export const MAX_WATCHED_DIRECTORIES = 1024;

/**
 * Most changed paths kept between two `changes()`; past it the watch is lost. Below the
 * kernel's default queue of 16,384 events: a queue that overflowed (events dropped unseen)
 * delivered more than this many first.
 */
export const MAX_WATCHED_CHANGES = 4096;

/**
 * Resolves once a poll of the event loop has run after the call: a change made before the call
 * has its event queued in the kernel by then, and the poll delivers every queued event.
 */
const afterNextPoll = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * `Operations.watchTree` on node:fs: one `fs.watch` per directory (inotify on Linux), none of
 * which keeps the process alive. Each event adds the path it names; `changes()` hands them over
 * after the next poll. A watch follows a directory's inode, so a directory renamed within the
 * tree reports under its old name until watched anew: its user relists and rewatches any
 * directory whose path changed (both names are reported by the parent).
 */
export function watchTree(root: string, options: WatchTreeOptions): TreeWatch {
  checkPath(root, "watchTree");
  const sep = process.platform === "win32" ? "\\" : "/";
  const full = (relative: string) =>
    relative === "" ? root : `${root}${sep}${relative.replaceAll("/", sep)}`;
  const watchers = new Map<string, FSWatcher>();
  let paths = new Set<string>();
  let lost = false;
  let closed = false;

  const rootName = basename(root);
  const loseTrack = () => {
    lost = true;
    paths.clear();
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };

  const watchOne = (relative: string) => {
    watchers.get(relative)?.close();
    watchers.delete(relative);
    if (watchers.size >= MAX_WATCHED_DIRECTORIES) return loseTrack();
    let watcher: FSWatcher;
    try {
      watcher = watch(full(relative), { persistent: false }, (_event, name) => {
        if (lost) return;
        // No name: the system could not say what changed in this directory.
        if (name === null || name === "") return loseTrack();
        // The root itself moved or removed (its watch reports its own name): nothing under
        // it can be told any more. Inner directories are reported by their parents.
        if (relative === "" && name === rootName && !existsSync(full(String(name)))) return loseTrack();
        paths.add(relative === "" ? String(name) : `${relative}/${String(name)}`);
        if (paths.size > MAX_WATCHED_CHANGES) loseTrack();
      });
    } catch (error) {
      // The root must be watched: say why it cannot be.
      if (relative === "") throw toOperationError(error, { operation: "watchTree", path: root });
      // A directory removed since it was listed: its parent reports the removal.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      return loseTrack();
    }
    watcher.on("error", loseTrack);
    watchers.set(relative, watcher);
  };

  const watchAll = (directories: readonly string[]) => {
    for (const directory of directories) {
      if (lost || closed) return;
      watchOne(directory);
    }
  };

  watchOne("");
  watchAll(options.directories.filter((directory) => directory !== ""));
  return {
    async changes(): Promise<TreeChanges> {
      await afterNextPoll();
      if (lost || closed) return { lost: true };
      const changed = [...paths];
      paths = new Set();
      return { lost: false, paths: changed };
    },
    watch: watchAll,
    close() {
      closed = true;
      loseTrack();
    },
  };
}
