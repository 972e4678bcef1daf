import type { Dirent, Stats } from "node:fs";
import type { DirEntry, FileStat, FileType } from "@tackle/operations";

/** The contract's `FileType` of a Node `Stats` or `Dirent`. */
export function fileTypeOf(entry: Stats | Dirent): FileType {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  return "other";
}

/** A Node `Stats` as the contract's `FileStat`. */
export function toFileStat(stats: Stats): FileStat {
  return { type: fileTypeOf(stats), size: stats.size, mtimeMs: stats.mtimeMs, mode: stats.mode & 0o7777 };
}

/** A Node `Dirent` as the contract's `DirEntry`. */
export function toDirEntry(entry: Dirent): DirEntry {
  return { name: entry.name, type: fileTypeOf(entry) };
}
