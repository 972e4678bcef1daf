import type {
  DirEntry,
  FileStat,
  FileType,
  MkdirOptions,
  OperationErrorCode,
  RemoveOptions,
} from "@tackle/operations";
import { OperationError } from "@tackle/operations";
import type { SFTPWrapper, Stats } from "ssh2";
import type { Session, SshConnection } from "./connection.js";
import { runRemote } from "./remote-command.js";
import { call, checkRemotePath, SFTP_STATUS, sftpError, sftpStatus, withSftp } from "./sftp-call.js";
import { shellQuote } from "./shell-quote.js";

const S_IFMT = 0o170000;

/** File type from SFTP permission bits. */
export function typeOfMode(mode: number): FileType {
  switch (mode & S_IFMT) {
    case 0o100000:
      return "file";
    case 0o040000:
      return "directory";
    case 0o120000:
      return "symlink";
    default:
      return "other";
  }
}

/** SFTP attributes as a {@link FileStat}. SFTP v3 carries whole seconds only, so `mtimeMs` is a multiple of 1000. */
export function toFileStat(stats: Pick<Stats, "mode" | "size" | "mtime">): FileStat {
  return {
    type: typeOfMode(stats.mode),
    size: stats.size,
    mtimeMs: stats.mtime * 1000,
    mode: stats.mode & 0o7777,
  };
}

function parentOf(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const index = trimmed.lastIndexOf("/");
  return index <= 0 ? "/" : trimmed.slice(0, index);
}

/**
 * NO_SUCH_FILE stands for ENOENT and ENOTDIR alike. The nearest existing ancestor tells them
 * apart: a directory means the path is missing, anything else means a parent is not a directory.
 */
export async function missingCode(sftp: SFTPWrapper, path: string): Promise<OperationErrorCode> {
  let current = parentOf(path);
  for (let depth = 0; depth < 64 && current !== path; depth++) {
    try {
      const stats = await call<Stats>((cb) => sftp.stat(current, cb));
      return typeOfMode(stats.mode) === "directory" ? "not_found" : "not_directory";
    } catch (error) {
      if (sftpStatus(error) !== SFTP_STATUS.NO_SUCH_FILE || current === "/") return "not_found";
      current = parentOf(current);
    }
  }
  return "not_found";
}

/** Maps an SFTP error, refining NO_SUCH_FILE into not_found / not_directory. */
export async function refined(
  sftp: SFTPWrapper,
  error: unknown,
  operation: string,
  path: string,
): Promise<OperationError> {
  if (sftpStatus(error) === SFTP_STATUS.NO_SUCH_FILE) {
    return sftpError(error, operation, path, await missingCode(sftp, path));
  }
  return sftpError(error, operation, path);
}

async function lstatOrUndefined(sftp: SFTPWrapper, path: string): Promise<Stats | undefined> {
  try {
    return await call<Stats>((cb) => sftp.lstat(path, cb));
  } catch (error) {
    if (sftpStatus(error) === SFTP_STATUS.NO_SUCH_FILE) return undefined;
    throw error;
  }
}

/** The file methods that map one-to-one onto SFTP requests. */
export function createFileMethods(connection: SshConnection) {
  const statWith = (operation: "stat" | "lstat") => (path: string, options?: { signal?: AbortSignal }) =>
    withSftp(connection, operation, path, options?.signal, async (sftp) => {
      try {
        return toFileStat(await call<Stats>((cb) => sftp[operation](path, cb)));
      } catch (error) {
        throw await refined(sftp, error, operation, path);
      }
    });

  return {
    stat: statWith("stat"),
    lstat: statWith("lstat"),

    realpath: (path: string, options?: { signal?: AbortSignal }) =>
      withSftp(connection, "realpath", path, options?.signal, async (sftp) => {
        // OpenSSH resolves a missing last component too; the contract wants not_found, so the
        // stat (which follows every link) runs alongside and decides.
        const [statResult, resolved] = await Promise.allSettled([
          call<Stats>((cb) => sftp.stat(path, cb)),
          call<string>((cb) => sftp.realpath(path, cb)),
        ]);
        if (statResult.status === "rejected") throw await refined(sftp, statResult.reason, "realpath", path);
        if (resolved.status === "rejected") throw await refined(sftp, resolved.reason, "realpath", path);
        return resolved.value;
      }),

    readlink: (path: string, options?: { signal?: AbortSignal }) =>
      withSftp(connection, "readlink", path, options?.signal, async (sftp) => {
        try {
          return await call<string>((cb) => sftp.readlink(path, cb));
        } catch (error) {
          const stats = await lstatOrUndefined(sftp, path);
          if (!stats) throw await refined(sftp, error, "readlink", path);
          if (typeOfMode(stats.mode) !== "symlink") {
            throw new OperationError("invalid_argument", `readlink: not a symbolic link: ${path}`, {
              operation: "readlink",
              path,
              cause: error,
            });
          }
          throw sftpError(error, "readlink", path);
        }
      }),

    readdir: (path: string, options?: { signal?: AbortSignal }) =>
      withSftp(connection, "readdir", path, options?.signal, async (sftp): Promise<DirEntry[]> => {
        try {
          const list = await call<{ filename: string; attrs: Stats }[]>((cb) => sftp.readdir(path, cb));
          return list
            .filter((item) => item.filename !== "." && item.filename !== "..")
            .map((item) => ({ name: item.filename, type: typeOfMode(item.attrs.mode) }));
        } catch (error) {
          const stats = await lstatOrUndefined(sftp, path).catch(() => undefined);
          if (stats) {
            const followed = await call<Stats>((cb) => sftp.stat(path, cb)).catch(() => stats);
            if (typeOfMode(followed.mode) !== "directory") {
              throw sftpError(error, "readdir", path, "not_directory");
            }
          }
          throw await refined(sftp, error, "readdir", path);
        }
      }),

    mkdir: (path: string, options?: MkdirOptions) =>
      withSftp(connection, "mkdir", path, options?.signal, async (sftp) => {
        await makeDirectory(sftp, path, options?.recursive === true);
      }),

    remove: (path: string, options?: RemoveOptions) =>
      withSftp(connection, "remove", path, options?.signal, async (sftp, session) => {
        await removePath(sftp, session, path, options ?? {});
      }),

    symlink: (target: string, path: string, options?: { signal?: AbortSignal }) =>
      withSftp(connection, "symlink", path, options?.signal, async (sftp) => {
        try {
          await call((cb) => sftp.symlink(target, path, cb));
        } catch (error) {
          if (await lstatOrUndefined(sftp, path)) throw sftpError(error, "symlink", path, "exists");
          throw await refined(sftp, error, "symlink", path);
        }
      }),

    rename: (from: string, to: string, options?: { signal?: AbortSignal }) =>
      withSftp(connection, "rename", from, options?.signal, async (sftp) => {
        checkRemotePath(to, "rename");
        try {
          await call((cb) => sftp.ext_openssh_rename(from, to, cb));
        } catch (error) {
          if (!(await lstatOrUndefined(sftp, from))) throw await refined(sftp, error, "rename", from);
          const target = await lstatOrUndefined(sftp, to);
          if (target && typeOfMode(target.mode) === "directory")
            throw sftpError(error, "rename", to, "exists");
          throw await refined(sftp, error, "rename", to);
        }
      }),

    chmod: (path: string, mode: number, options?: { signal?: AbortSignal }) =>
      withSftp(connection, "chmod", path, options?.signal, async (sftp) => {
        try {
          await call((cb) => sftp.chmod(path, mode & 0o7777, cb));
        } catch (error) {
          throw await refined(sftp, error, "chmod", path);
        }
      }),
  };
}

async function makeDirectory(sftp: SFTPWrapper, path: string, recursive: boolean): Promise<void> {
  try {
    await call((cb) => sftp.mkdir(path, cb));
    return;
  } catch (error) {
    const existing = await call<Stats>((cb) => sftp.stat(path, cb)).catch(() => undefined);
    if (existing) {
      if (recursive && typeOfMode(existing.mode) === "directory") return;
      throw sftpError(error, "mkdir", path, "exists");
    }
    if (await lstatOrUndefined(sftp, path)) throw sftpError(error, "mkdir", path, "exists");
    const code = await missingCode(sftp, path);
    if (!recursive || code !== "not_found" || parentOf(path) === path) {
      throw sftpError(
        error,
        "mkdir",
        path,
        sftpStatus(error) === SFTP_STATUS.NO_SUCH_FILE ? code : undefined,
      );
    }
  }
  await makeDirectory(sftp, parentOf(path), true);
  await makeDirectory(sftp, path, true);
}

async function removePath(
  sftp: SFTPWrapper,
  session: Session,
  path: string,
  options: RemoveOptions,
): Promise<void> {
  let stats: Stats | undefined;
  try {
    stats = await lstatOrUndefined(sftp, path);
  } catch (error) {
    throw await refined(sftp, error, "remove", path);
  }
  if (!stats) {
    if (options.force) return;
    throw new OperationError(await missingCode(sftp, path), `remove: no such file or directory: ${path}`, {
      operation: "remove",
      path,
    });
  }
  if (typeOfMode(stats.mode) !== "directory") {
    try {
      await call((cb) => sftp.unlink(path, cb));
    } catch (error) {
      throw await refined(sftp, error, "remove", path);
    }
    return;
  }
  if (options.recursive) {
    // One `rm -rf` on the remote beats a walk of SFTP round trips for every entry.
    const result = await runRemote(session, `rm -rf -- ${shellQuote(path)}`);
    if (result.exitCode !== 0) {
      throw new OperationError(
        "unknown",
        `remove failed: ${result.stderr.trim() || `rm exited ${result.exitCode}`}: ${path}`,
        {
          operation: "remove",
          path,
        },
      );
    }
    return;
  }
  try {
    await call((cb) => sftp.rmdir(path, cb));
  } catch (error) {
    const code = sftpStatus(error) === SFTP_STATUS.FAILURE ? "exists" : undefined;
    throw code ? sftpError(error, "remove", path, code) : await refined(sftp, error, "remove", path);
  }
}
