import { constants, type Stats } from "node:fs";
import { access, lstat, open, readlink, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import {
  isOperationError,
  notRegularFileError,
  OperationError,
  tempFileName,
  throwIfAborted,
  type WriteFileOptions,
  writeExpectationWord,
} from "@tackle/operations";
import { guarded } from "./guard.js";
import { type PinnedDirectory, pinDirectory } from "./pinned-directory.js";
import { sweepAbandonedTempFiles } from "./temp-sweep.js";
import { checkExpectation, takeWriteLock } from "./write-condition.js";
import { localWriter } from "./writer-identity.js";

/** Mode of a new file when the caller gives none (the umask then applies, as for any new file). */
const DEFAULT_NEW_MODE = 0o644;
/** Links followed before giving up, like the kernel's own limit. */
const MAX_LINK_HOPS = 40;

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Atomic replace. The target's directory is opened first and held (see `pinDirectory`): the temp
 * file (named by `tempFileName`, 64 random bits, created with O_EXCL so nobody can plant it) is
 * created, renamed over the target, and on failure removed, all through that open directory, so
 * a directory of the path swapped for a link mid-write cannot send any of it elsewhere. The temp
 * file gets the old file's mode (and owner, when allowed), is fsynced, renamed, and the directory
 * fsynced so the rename survives a crash. With `within`, the directory is opened from that root
 * without following links and checked again right before the rename. Writing through a link
 * replaces the link's final target, so the link stays a link. Temp files of dead writers in the
 * directory are swept along the way. On any failure or abort the target is untouched. With
 * `expect`, the write lock of the target is taken after the temp file is complete, the target
 * compared, renamed over and the lock removed: the lock is held for a read of the target and a
 * rename, never while the new bytes are written.
 */
export function writeFile(
  path: string,
  data: Uint8Array | string,
  options: WriteFileOptions = {},
): Promise<void> {
  const { signal } = options;
  return guarded(
    "writeFile",
    path,
    signal,
    async () => {
      writeExpectationWord(options.expect, path);
      const target = await resolveWriteTarget(path);
      throwIfAborted(signal, "writeFile");
      const directory = await pinDirectory(dirname(target), options.within);
      const swept = sweepAbandonedTempFiles(directory);
      try {
        await writeInto(directory, basename(target), path, data, options);
      } finally {
        await swept;
        await directory.close();
      }
    },
    { race: false },
  );
}

async function writeInto(
  directory: PinnedDirectory,
  name: string,
  path: string,
  data: Uint8Array | string,
  options: WriteFileOptions,
): Promise<void> {
  const { signal } = options;
  const existing = await existingTarget(directory.path(name), path, options.within !== undefined);
  // The rename would replace even a read-only file (only the directory's bits matter for it);
  // refuse as a plain write would, so "read-only" keeps meaning something.
  if (existing) await access(directory.path(name), constants.W_OK);
  const temp = tempFileName(name, localWriter());
  const mode = existing ? existing.mode & 0o7777 : (options.mode ?? DEFAULT_NEW_MODE);
  const handle = await open(directory.path(temp), TEMP_FLAGS, mode);
  let renamed = false;
  try {
    // open() applied the umask; an existing file's mode (or an explicit mode) must survive intact.
    if (existing || options.mode !== undefined) await handle.chmod(mode);
    if (existing) await handle.chown(existing.uid, existing.gid).catch(() => undefined);
    await handle.writeFile(data, signal ? { signal } : {});
    await handle.sync();
    await handle.close();
    throwIfAborted(signal, "writeFile");
    // With `expect`: the lock, the compare and the rename, back to back (see WriteFileOptions.expect).
    const release = options.expect ? await takeWriteLock(directory, name, path, signal) : undefined;
    try {
      if (options.expect) {
        const word = writeExpectationWord(options.expect, path);
        await checkExpectation(directory.path(name), options.expect, word, path);
      }
      await directory.verify();
      await rename(directory.path(temp), directory.path(name));
      renamed = true;
    } finally {
      await release?.();
    }
    await directory.sync();
  } catch (error) {
    throw createdTempFailure(error, path);
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await unlink(directory.path(temp)).catch(() => undefined);
    }
  }
}

/**
 * The file being replaced, if any. A special file is refused (a rename would swap a device node
 * or FIFO for a regular file). With a root, a target that turned into a link since it was
 * resolved is a path changing under the write: refused like a directory swapped for a link.
 */
async function existingTarget(pinned: string, path: string, rooted: boolean): Promise<Stats | undefined> {
  const own = await lstat(pinned).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!own) return undefined;
  if (own.isSymbolicLink() && rooted) {
    throw new OperationError(
      "outside_root",
      `writeFile: ${path} became a link during the write; nothing was written`,
      {
        operation: "writeFile",
        path,
      },
    );
  }
  const existing = own.isSymbolicLink() ? await stat(pinned).catch(() => undefined) : own;
  if (!existing) return undefined;
  if (existing.isDirectory()) {
    throw new OperationError("is_directory", `writeFile: is a directory: ${path}`, {
      operation: "writeFile",
      path,
    });
  }
  if (!existing.isFile()) throw notRegularFileError("writeFile", path);
  return existing;
}

/**
 * Once the temp file exists, "no such file" cannot mean the target's directory was missing (the
 * temp file is in it): it means the directory changed or went away mid-write. Saying `not_found`
 * would send the caller looking for a path that was there.
 */
function createdTempFailure(error: unknown, path: string): unknown {
  if (isOperationError(error) || (error as NodeJS.ErrnoException).code !== "ENOENT") return error;
  return new OperationError(
    "unknown",
    `writeFile: the directory of ${path} changed or was removed during the write; nothing was written`,
    { operation: "writeFile", path, cause: error },
  );
}

/**
 * The file a write lands in: the path itself, or the final target when it is a link (also a
 * dangling one: writing through it creates the target, as a shell redirect would).
 */
async function resolveWriteTarget(path: string): Promise<string> {
  let current = path;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    const stats = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (!stats?.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  // Let the kernel report the loop with its own errno.
  return realpath(path);
}
