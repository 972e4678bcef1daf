import * as fs from "node:fs/promises";
import {
  type CallOptions,
  type DirEntry,
  type FileStat,
  type MkdirOptions,
  OperationError,
  type RemoveOptions,
} from "@tackle/operations";
import { toDirEntry, toFileStat } from "./file-stat.js";
import { checkPath, guarded } from "./guard.js";

/** `stat` on node:fs: follows links; a dangling link or a loop is `not_found`. */
export function stat(path: string, options: CallOptions = {}): Promise<FileStat> {
  return guarded("stat", path, options.signal, async () => toFileStat(await fs.stat(path)));
}

/** `lstat` on node:fs: a final link reports `"symlink"`. */
export function lstat(path: string, options: CallOptions = {}): Promise<FileStat> {
  return guarded("lstat", path, options.signal, async () => toFileStat(await fs.lstat(path)));
}

/** `realpath` on node:fs. */
export function realpath(path: string, options: CallOptions = {}): Promise<string> {
  return guarded("realpath", path, options.signal, () => fs.realpath(path));
}

/** `readlink` on node:fs; EINVAL (not a link) becomes `invalid_argument`. */
export function readlink(path: string, options: CallOptions = {}): Promise<string> {
  return guarded("readlink", path, options.signal, () => fs.readlink(path));
}

/** `mkdir` on node:fs (`recursive` like `mkdir -p`). */
export function mkdir(path: string, options: MkdirOptions = {}): Promise<void> {
  return guarded("mkdir", path, options.signal, async () => {
    await fs.mkdir(path, { recursive: options.recursive === true });
  });
}

/** Entries of a directory with their own (unfollowed) types. */
export function readdir(path: string, options: CallOptions = {}): Promise<DirEntry[]> {
  return guarded("readdir", path, options.signal, async () =>
    (await fs.readdir(path, { withFileTypes: true })).map(toDirEntry),
  );
}

/**
 * Removes a file, a link (never its target) or a directory. A directory needs `recursive` unless
 * it is empty; a non-empty one without it fails with `exists` (ENOTEMPTY).
 */
export function remove(path: string, options: RemoveOptions = {}): Promise<void> {
  return guarded("remove", path, options.signal, async () => {
    let stats: Awaited<ReturnType<typeof fs.lstat>>;
    try {
      stats = await fs.lstat(path);
    } catch (error) {
      if (options.force && (error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    if (!stats.isDirectory()) return fs.unlink(path);
    if (options.recursive) return fs.rm(path, { recursive: true, force: options.force === true });
    return fs.rmdir(path);
  });
}

/** Creates a symbolic link at `path` whose target string is `target` (stored as given). */
export async function symlink(target: string, path: string, options: CallOptions = {}): Promise<void> {
  if (target.includes("\0")) {
    throw new OperationError("invalid_argument", "symlink: target contains a NUL byte", {
      operation: "symlink",
      path,
    });
  }
  return guarded("symlink", path, options.signal, () => fs.symlink(target, path));
}

/** `rename` on node:fs (atomic within one filesystem). */
export async function rename(from: string, to: string, options: CallOptions = {}): Promise<void> {
  checkPath(to, "rename");
  return guarded("rename", from, options.signal, () => fs.rename(from, to));
}

/** `chmod` on node:fs (follows links). */
export function chmod(path: string, mode: number, options: CallOptions = {}): Promise<void> {
  return guarded("chmod", path, options.signal, () => fs.chmod(path, mode));
}
