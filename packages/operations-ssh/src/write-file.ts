import { randomBytes } from "node:crypto";
import { OperationError, throwIfAborted, type WriteFileOptions } from "@tackle/operations";
import type { SFTPWrapper, Stats } from "ssh2";
import type { SshConnection } from "./connection.js";
import { missingCode, refined, typeOfMode } from "./files.js";
import { call, SFTP_STATUS, sftpError, sftpStatus, withSftp } from "./sftp-call.js";

/** Bytes per SFTP write request; several are in flight at once. */
const WRITE_SIZE = 64 * 1024;
const WRITES_IN_FLIGHT = 8;

function split(path: string): { dir: string; base: string } {
  const index = path.lastIndexOf("/");
  return { dir: index <= 0 ? "/" : path.slice(0, index), base: path.slice(index + 1) };
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
  if (typeOfMode(link.mode) === "symlink") {
    let target: string;
    try {
      target = await call<string>((cb) => sftp.realpath(path, cb));
    } catch (error) {
      throw await refined(sftp, error, "writeFile", path);
    }
    const existing = await call<Stats>((cb) => sftp.stat(target, cb)).catch(() => undefined);
    if (existing && typeOfMode(existing.mode) === "directory") {
      throw new OperationError("is_directory", `writeFile: is a directory: ${path}`, {
        operation: "writeFile",
        path,
      });
    }
    return existing ? { target, existing } : { target };
  }
  if (typeOfMode(link.mode) === "directory") {
    throw new OperationError("is_directory", `writeFile: is a directory: ${path}`, {
      operation: "writeFile",
      path,
    });
  }
  return { target: path, existing: link };
}

/**
 * ATOMIC remote write: a temp file in the target's directory (created exclusively), all bytes
 * written and the handle closed, the mode set, then `posix-rename@openssh.com` over the target
 * (plain SFTP rename refuses to replace on OpenSSH). A reader sees the old or the new file, never
 * a mix. The temp file is removed when anything fails.
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
  return withSftp(
    connection,
    "writeFile",
    path,
    options?.signal,
    async (sftp) => {
      const { target, existing } = await resolveTarget(sftp, path);
      const { dir, base } = split(target);
      const temp = `${dir === "/" ? "" : dir}/.${base}.tackle-${randomBytes(6).toString("hex")}.tmp`;
      // A new file gets `mode` through the server's umask, like open(2); an existing one keeps its
      // exact bits, set explicitly below (no umask applies to fchmod).
      const createMode = existing ? 0o600 : (options?.mode ?? 0o644);
      let handle: Buffer;
      try {
        handle = await call<Buffer>((cb) => sftp.open(temp, "wx", { mode: createMode }, cb));
      } catch (error) {
        throw await refined(sftp, error, "writeFile", path);
      }
      let renamed = false;
      try {
        try {
          for (
            let offset = 0;
            offset < bytes.length || offset === 0;
            offset += WRITE_SIZE * WRITES_IN_FLIGHT
          ) {
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
        } finally {
          await call((cb) => sftp.close(handle, cb));
        }
        throwIfAborted(options?.signal, "writeFile");
        await call((cb) => sftp.ext_openssh_rename(temp, target, cb));
        renamed = true;
      } catch (error) {
        throw sftpError(error, "writeFile", path);
      } finally {
        // Awaited: an aborted or failed write must not leave its temp file behind when it rejects.
        if (!renamed) await call((cb) => sftp.unlink(temp, cb)).catch(() => {});
      }
    },
    { settleOnAbort: true },
  );
}
