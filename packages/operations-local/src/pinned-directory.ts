import { constants, existsSync } from "node:fs";
import { type FileHandle, lstat, open, readlink, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { OperationError } from "@tackle/operations";

/**
 * `/proc/self/fd/N/<name>` reaches `<name>` inside the directory open as descriptor N, wherever
 * that directory is now and whatever links were swapped into its old path: Node's stand-in for
 * openat(2), renameat(2) and unlinkat(2). Linux only; elsewhere paths are used (see below).
 */
const PROC_FD = "/proc/self/fd";
const hasProcFd = process.platform === "linux" && existsSync(PROC_FD);

const DIRECTORY_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);

/**
 * A directory a write works in, held open from the moment it was checked: every name the write
 * creates, renames or removes is reached through `path(name)`, so a directory of the original
 * path swapped for a link (or moved) after the check cannot redirect it. Without /proc the
 * directory is reached by its checked real path, and `verify` re-checks it just before the rename.
 */
export interface PinnedDirectory {
  /** A path that reaches `name` inside the pinned directory. */
  path(name: string): string;
  /**
   * With a root: fails with `outside_root` when the directory no longer lies inside it (it was
   * moved out), or `unknown` when it was removed. Call it right before the rename.
   */
  verify(): Promise<void>;
  /** Flushes the directory's entries (the rename) to disk where the filesystem allows. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens `directory` for a write. With `within`, the directory's real path must lie inside the real
 * path of `within`, and it is opened one component at a time from `within` without following
 * links (`O_DIRECTORY | O_NOFOLLOW`): a component that is a link by then (swapped in after the
 * check) fails the call with `outside_root` instead of being followed.
 */
export async function pinDirectory(directory: string, within: string | undefined): Promise<PinnedDirectory> {
  if (within === undefined) {
    return hasProcFd
      ? pinnedByHandle(await open(directory, DIRECTORY_FLAGS), undefined)
      : pinnedByPath(directory);
  }
  const root = await realpath(within);
  const real = await realpath(directory);
  if (!isInside(root, real)) throw outsideRoot(directory, within, real);
  if (!hasProcFd) return pinnedByPath(real, root, within);
  let handle = await open(root, DIRECTORY_FLAGS);
  try {
    let reached = root;
    for (const component of relative(root, real).split(sep).filter(Boolean)) {
      reached = join(reached, component);
      const next = await open(
        `${PROC_FD}/${handle.fd}/${component}`,
        DIRECTORY_FLAGS | constants.O_NOFOLLOW,
      ).catch(async (error: NodeJS.ErrnoException) => {
        // O_DIRECTORY | O_NOFOLLOW on a link fails with ENOTDIR, like on a file. The real path
        // said "directory" a moment ago, so unless a file sits there now, a link was swapped in
        // (and maybe out again already).
        if (error.code === "ENOTDIR" || error.code === "ELOOP") {
          const stats = await lstat(`${PROC_FD}/${handle.fd}/${component}`).catch(() => undefined);
          if (!stats?.isFile())
            throw outsideRoot(directory, within, reached, "was replaced during the write");
        }
        throw error;
      });
      await handle.close();
      handle = next;
    }
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  return pinnedByHandle(handle, { root, within });
}

function pinnedByHandle(
  handle: FileHandle,
  root: { root: string; within: string } | undefined,
): PinnedDirectory {
  const base = `${PROC_FD}/${handle.fd}`;
  return {
    path: (name) => `${base}/${name}`,
    async verify() {
      if (!root) return;
      // The kernel's own record of where the open directory is now.
      const now = await readlink(base);
      if (now.endsWith(" (deleted)")) {
        throw new OperationError("unknown", `writeFile: the directory was removed during the write: ${now}`, {
          operation: "writeFile",
        });
      }
      if (!isInside(root.root, now)) throw outsideRoot(now, root.within, now, "was moved");
    },
    sync: () => handle.sync().catch(() => undefined),
    close: () => handle.close(),
  };
}

/** The fallback without /proc: the checked real path, re-resolved by `verify`. */
function pinnedByPath(directory: string, root?: string, within?: string): PinnedDirectory {
  return {
    path: (name) => join(directory, name),
    async verify() {
      if (root === undefined || within === undefined) return;
      const now = await realpath(directory);
      if (now !== directory) throw outsideRoot(directory, within, now, "changed");
    },
    async sync() {
      const handle = await open(directory, "r").catch(() => undefined);
      await handle?.sync().catch(() => undefined);
      await handle?.close();
    },
    close: async () => {},
  };
}

/** True when `path` is `root` or below it (both absolute, normalised). */
export function isInside(root: string, path: string): boolean {
  if (!isAbsolute(path)) return false;
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function outsideRoot(directory: string, within: string, found: string, how?: string): OperationError {
  const detail = how ? `${found} ${how}` : `it is really ${found}`;
  return new OperationError(
    "outside_root",
    `writeFile: the directory ${directory} is not inside ${within} (${detail}); nothing was written`,
    { operation: "writeFile", path: directory },
  );
}
