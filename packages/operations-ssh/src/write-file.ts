import {
  notRegularFileError,
  OperationError,
  tempFileName,
  throwIfAborted,
  type WriteFileOptions,
  writeExpectationWord,
} from "@tackle/operations";
import type { SFTPWrapper, Stats } from "ssh2";
import { conditionalRename } from "./conditional-rename.js";
import type { Session, SshConnection } from "./connection.js";
import { missingCode, refined, typeOfMode } from "./files.js";
import { call, SFTP_STATUS, sftpError, sftpStatus, withSftp } from "./sftp-call.js";
import { locateOpenFile, sftpWriter, sweepAbandonedTempFiles } from "./temp-files.js";

/** Bytes per SFTP write request; several are in flight at once. */
const WRITE_SIZE = 64 * 1024;
const WRITES_IN_FLIGHT = 8;

function split(path: string): { dir: string; base: string } {
  const index = path.lastIndexOf("/");
  return { dir: index <= 0 ? "/" : path.slice(0, index), base: path.slice(index + 1) };
}

function join(dir: string, name: string): string {
  return `${dir === "/" ? "" : dir}/${name}`;
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root === "/" ? "/" : `${root}/`);
}

/**
 * The file a write replaces: the path itself, or the final target when it is a link (writing
 * through a link replaces the target, like an editor does, and keeps the link).
 */
async function resolveTarget(sftp: SFTPWrapper, path: string): Promise<{ target: string; existing?: Stats }> {
  let link: Stats;
  try {
    link = await call<Stats>((cb) => sftp.lstat(path, cb));
  } catch (error) {
    if (sftpStatus(error) === SFTP_STATUS.NO_SUCH_FILE) {
      const code = await missingCode(sftp, path);
      if (code === "not_found") return { target: path };
      throw sftpError(error, "writeFile", path, code);
    }
    throw sftpError(error, "writeFile", path);
  }
  let target = path;
  let existing: Stats | undefined = link;
  if (typeOfMode(link.mode) === "symlink") {
    try {
      target = await call<string>((cb) => sftp.realpath(path, cb));
    } catch (error) {
      throw await refined(sftp, error, "writeFile", path);
    }
    existing = await call<Stats>((cb) => sftp.stat(target, cb)).catch(() => undefined);
  }
  const type = existing ? typeOfMode(existing.mode) : "file";
  if (type === "directory") {
    throw new OperationError("is_directory", `writeFile: is a directory: ${path}`, {
      operation: "writeFile",
      path,
    });
  }
  if (type !== "file") throw notRegularFileError("writeFile", path);
  return existing ? { target, existing } : { target };
}

/** The canonical path of a directory (every link resolved), as the server sees it now. */
async function canonical(sftp: SFTPWrapper, dir: string, path: string): Promise<string> {
  try {
    return await call<string>((cb) => sftp.realpath(dir, cb));
  } catch (error) {
    throw await refined(sftp, error, "writeFile", path);
  }
}

function outsideRoot(path: string, within: string, found: string): OperationError {
  return new OperationError(
    "outside_root",
    `writeFile: the directory of ${path} is not inside ${within} (it is really ${found}); nothing was written`,
    { operation: "writeFile", path },
  );
}

/**
 * ATOMIC remote write: a temp file (named by `tempFileName` after this channel's SFTP server) in
 * the target's directory, created exclusively, all bytes written, the mode set, then
 * `posix-rename@openssh.com` over the target (plain SFTP rename refuses to replace on OpenSSH). A
 * reader sees the old or the new file, never a mix.
 *
 * SFTP has no `openat`, so the directory is used by its canonical path, resolved once (a link on
 * the original path is not followed again). The temp file stays open until it is renamed or
 * removed: where it really is then is read from the SFTP server's own `/proc/self/fd` (its name
 * is unique), so a failed write removes it wherever a swap or a move took its directory, and a
 * write `within` a root renames it only if that place lies inside the root (`outside_root`
 * otherwise). What remains is the one round trip between that look and the rename: see
 * docs/write-safety.md. A temp file a dropped connection left is removed on reconnect, and temp
 * files of dead writers in the directory are swept along the way.
 */
export function writeFile(
  connection: SshConnection,
  path: string,
  data: Uint8Array | string,
  options?: WriteFileOptions,
): Promise<void> {
  const bytes =
    typeof data === "string"
      ? Buffer.from(data, "utf8")
      : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const within = options?.within;
  let condition: string;
  try {
    condition = writeExpectationWord(options?.expect, path);
  } catch (error) {
    return Promise.reject(error);
  }
  return withSftp(
    connection,
    "writeFile",
    path,
    options?.signal,
    async (sftp, session) => {
      // In flight together: the target, the directory it most likely is in, the root, the writer.
      const guessDir = split(path).dir;
      const [{ target, existing }, guessReal, root, owner] = await Promise.all([
        resolveTarget(sftp, path),
        canonical(sftp, guessDir, path).catch((error: unknown) => error as Error),
        within === undefined ? undefined : canonical(sftp, within, within),
        sftpWriter(sftp),
      ]);
      const { dir, base } = split(target);
      const realDir =
        dir === guessDir && typeof guessReal === "string" ? guessReal : await canonical(sftp, dir, path);
      if (root !== undefined && !isInside(root, realDir)) throw outsideRoot(path, within as string, realDir);
      const swept = sweepAbandonedTempFiles(sftp, realDir);
      try {
        await writeThroughTemp({
          connection,
          session,
          condition,
          domain: owner.domain,
          sftp,
          lost: () => session.isLost,
          dir: realDir,
          name: tempFileName(base, owner),
          base,
          bytes,
          existing,
          options,
          root,
        });
      } finally {
        await swept;
      }
    },
    { settleOnAbort: true },
  );
}

interface TempWrite {
  connection: SshConnection;
  session: Session;
  /** `writeExpectationWord` of `expect`: "" when the write is unconditional. */
  condition: string;
  /** The writer domain of this SFTP server, which the rename script shares (same host). */
  domain: string;
  sftp: SFTPWrapper;
  lost: () => boolean;
  /** Canonical directory the temp file is created in, and the names in it. */
  dir: string;
  name: string;
  base: string;
  bytes: Buffer;
  existing: Stats | undefined;
  options: WriteFileOptions | undefined;
  /** Canonical root the rename must stay inside (`within`), if any. */
  root: string | undefined;
}

async function writeThroughTemp(write: TempWrite): Promise<void> {
  const { connection, sftp, dir, name, base, bytes, existing, options } = write;
  const temp = join(dir, name);
  const target = join(dir, base);
  // A new file gets `mode` through the server's umask, like open(2); an existing one keeps its
  // exact bits, set explicitly below (no umask applies to fchmod).
  const createMode = existing ? 0o600 : (options?.mode ?? 0o644);
  // If the connection drops before the temp file is renamed or removed, the adapter removes it
  // when it reconnects. Noted before the open: a drop between the server creating the file and
  // its answer reaching us would otherwise strand it (removing a name never created just fails).
  connection.leftovers.addTempFile(temp);
  let handle: Buffer;
  try {
    handle = await call<Buffer>((cb) => sftp.open(temp, "wx", { mode: createMode }, cb));
  } catch (error) {
    // The server answered with a status: refused, nothing was created ("wx"). Without an
    // answer (the connection dropped) it may exist.
    if (sftpStatus(error) !== undefined) connection.leftovers.removeTempFile(temp);
    throw await refined(sftp, error, "writeFile", target);
  }
  let settled = false;
  try {
    for (let offset = 0; offset < bytes.length || offset === 0; offset += WRITE_SIZE * WRITES_IN_FLIGHT) {
      throwIfAborted(options?.signal, "writeFile");
      const writes: Promise<void>[] = [];
      for (let i = 0; i < WRITES_IN_FLIGHT; i++) {
        const start = offset + i * WRITE_SIZE;
        if (start >= bytes.length) break;
        const part = bytes.subarray(start, Math.min(start + WRITE_SIZE, bytes.length));
        writes.push(call((cb) => sftp.write(handle, part, 0, part.length, start, cb)));
      }
      await Promise.all(writes);
      if (bytes.length === 0) break;
    }
    if (existing) await call((cb) => sftp.fchmod(handle, existing.mode & 0o7777, cb));
    throwIfAborted(options?.signal, "writeFile");
    const [from, to] = write.root === undefined ? [temp, target] : await placeInRoot(write, temp);
    if (write.condition === "") await call((cb) => sftp.ext_openssh_rename(from, to, cb));
    else await conditionalRename(write.session, from, to, write.condition, write.domain);
    settled = true;
  } catch (error) {
    throw createdTempFailure(error, target);
  } finally {
    // Awaited: an aborted or failed write must not leave its temp file behind when it rejects.
    // Removed where it is now (its directory may have moved), never by a path resolved again.
    if (!settled && !write.lost()) settled = await removeOpenTemp(sftp, name, temp);
    await call((cb) => sftp.close(handle, cb)).catch(() => undefined);
    if (settled) connection.leftovers.removeTempFile(temp);
  }
}

/**
 * The rename of a write `within` a root: from where the open temp file is now to the target name
 * next to it, when that directory lies inside the root. Without /proc on the server, the
 * directory's canonical path is resolved again and must be unchanged.
 */
async function placeInRoot(write: TempWrite, temp: string): Promise<[string, string]> {
  const root = write.root as string;
  const within = write.options?.within as string;
  const now = await locateOpenFile(write.sftp, write.name);
  if (now === undefined) {
    const again = await canonical(write.sftp, write.dir, temp);
    if (again !== write.dir) throw outsideRoot(temp, within, again);
    return [temp, join(write.dir, write.base)];
  }
  const { dir } = split(now);
  if (!isInside(root, dir)) throw outsideRoot(temp, within, dir);
  return [now, join(dir, write.base)];
}

/** Tries to remove a temp file whose directory keeps moving before giving up on it. */
const REMOVE_ATTEMPTS = 10;

/**
 * Removes the temp file this channel holds open as `name`, where it is now. Its directory may
 * move between the look and the unlink (an attacker swapping it back and forth): a miss looks
 * again, as long as the open file still has a name. True when it is gone.
 */
async function removeOpenTemp(sftp: SFTPWrapper, name: string, created: string): Promise<boolean> {
  for (let attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
    const located = await locateOpenFile(sftp, name);
    // Without /proc, the path it was created at is all there is.
    const path = located ?? (attempt === 0 ? created : undefined);
    if (path === undefined) return true;
    const removed = await call((cb) => sftp.unlink(path, cb)).then(
      () => true,
      (error: unknown) => (sftpStatus(error) === SFTP_STATUS.NO_SUCH_FILE ? undefined : false),
    );
    if (removed !== undefined) return removed;
    if (located === undefined) return true;
  }
  return false;
}

/**
 * Once the temp file exists, "no such file" cannot mean the directory was missing: it changed
 * or went away mid-write, and `not_found` would send the caller looking for a path that was there.
 */
function createdTempFailure(error: unknown, path: string): OperationError {
  if (sftpStatus(error) !== SFTP_STATUS.NO_SUCH_FILE) return sftpError(error, "writeFile", path);
  return new OperationError(
    "unknown",
    `writeFile: the directory of ${path} changed or was removed during the write; nothing was written`,
    { operation: "writeFile", path, cause: error },
  );
}
