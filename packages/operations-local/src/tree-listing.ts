import { type Dirent, lstatSync, readdirSync } from "node:fs";
import {
  type ListTreeOptions,
  type TreeEntry,
  type TreeListing,
  throwIfAborted,
  toOperationError,
} from "@tackle/operations";
import { fileTypeOf } from "./file-stat.js";
import { checkPath } from "./guard.js";

/**
 * Synchronous calls between two turns of the event loop. A call through libuv's thread pool
 * costs several times the system call it makes (a 200-file tree: about 8 ms of CPU as promises,
 * 1-2 ms synchronously, on the 2-CPU test machine); slices keep a large tree from blocking the
 * host for long (256 `lstat`s take well under a millisecond on a local disk).
 */
const CALLS_PER_SLICE = 256;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `Operations.listTree` on node:fs: breadth first, names sorted per directory (a listing cut by
 * a bound keeps the same first names), synchronous `readdir` and `lstat` in slices of
 * {@link CALLS_PER_SLICE} calls. `root` failing rejects with its mapped code; any other entry
 * that cannot be read is left out.
 */
export async function listTree(root: string, options: ListTreeOptions): Promise<TreeListing> {
  checkPath(root, "listTree");
  throwIfAborted(options.signal, "listTree");
  const deadline = Date.now() + options.timeBudgetMs;
  const skip = new Set(options.skipDirectories ?? []);
  const sep = process.platform === "win32" ? "\\" : "/";
  const entries: TreeEntry[] = [];
  const queue: string[] = [""];
  let calls = 0;
  let complete = true;
  const full = (relative: string) =>
    relative === "" ? root : `${root}${sep}${relative.replaceAll("/", sep)}`;
  const directory = (path: string, name: string) => {
    entries.push({ path, type: "directory", size: 0, mtimeMs: 0 });
    if (!skip.has(name)) queue.push(path);
  };
  const read = (relative: string): Dirent[] | undefined => {
    try {
      return readdirSync(full(relative), { withFileTypes: true });
    } catch (error) {
      if (relative === "") throw toOperationError(error, { operation: "listTree", path: root });
      return undefined;
    }
  };
  walk: for (let index = 0; index < queue.length; index++) {
    const relative = queue[index] as string;
    const names = read(relative);
    calls++;
    if (names === undefined) continue;
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      if (entries.length >= options.maxEntries || Date.now() > deadline) {
        complete = false;
        break walk;
      }
      if (calls >= CALLS_PER_SLICE) {
        calls = 0;
        await nextTurn();
        throwIfAborted(options.signal, "listTree");
      }
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        directory(path, entry.name);
        continue;
      }
      calls++;
      try {
        const stats = lstatSync(full(path));
        // A file system that reports no types in its listing: the lstat tells.
        if (stats.isDirectory()) directory(path, entry.name);
        else entries.push({ path, type: fileTypeOf(stats), size: stats.size, mtimeMs: stats.mtimeMs });
      } catch {
        // Removed since the listing, or unreadable: left out.
      }
    }
  }
  return { entries, complete };
}
