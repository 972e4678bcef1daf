import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { access, lstat, open, readlink, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { OperationError, throwIfAborted, type WriteFileOptions } from "@tackle/operations";
import { guarded } from "./guard.js";

/** Mode of a new file when the caller gives none (the umask then applies, as for any new file). */
const DEFAULT_NEW_MODE = 0o644;
/** Links followed before giving up, like the kernel's own limit. */
const MAX_LINK_HOPS = 40;

/**
 * Atomic replace. The bytes go to a temp file in the target's own directory (same filesystem, so
 * the final rename is atomic), named `.<name>.<random>.tackle-tmp` with 96 random bits so no
 * other process can predict and pre-create it; it is opened with O_EXCL, given the old file's
 * mode (and owner, when allowed), fsynced, renamed over the target, and the directory is fsynced
 * so the rename survives a crash. Writing through a link replaces the link's final target, so
 * the link stays a link. On any failure or abort the temp file is removed and the target is
 * untouched.
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
      const target = await resolveWriteTarget(path);
      throwIfAborted(signal, "writeFile");
      const existing = await stat(target).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      if (existing?.isDirectory()) {
        throw new OperationError("is_directory", `writeFile: is a directory: ${path}`, {
          operation: "writeFile",
          path,
        });
      }
      // The rename would replace even a read-only file (only the directory's bits matter for it);
      // refuse as a plain write would, so "read-only" keeps meaning something.
      if (existing) await access(target, constants.W_OK);
      const directory = dirname(target);
      const temp = resolve(directory, `.${basename(target)}.${randomBytes(12).toString("hex")}.tackle-tmp`);
      const mode = existing ? existing.mode & 0o7777 : (options.mode ?? DEFAULT_NEW_MODE);
      const handle = await open(temp, "wx", mode);
      let renamed = false;
      try {
        // open() applied the umask; an existing file's mode (or an explicit mode) must survive intact.
        if (existing || options.mode !== undefined) await handle.chmod(mode);
        if (existing) await handle.chown(existing.uid, existing.gid).catch(() => undefined);
        await handle.writeFile(data, signal ? { signal } : {});
        await handle.sync();
        await handle.close();
        throwIfAborted(signal, "writeFile");
        await rename(temp, target);
        renamed = true;
        await syncDirectory(directory);
      } finally {
        if (!renamed) {
          await handle.close().catch(() => undefined);
          await unlink(temp).catch(() => undefined);
        }
      }
    },
    { race: false },
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

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r").catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    await handle.close();
  }
}
