import { randomBytes } from "node:crypto";
import {
  isAbandonedTempFile,
  parseTempFileName,
  runningProcessStart,
  type TempFileOwner,
  tempFileDomain,
} from "@tackle/operations";
import type { SFTPWrapper, Stats } from "ssh2";
import { typeOfMode } from "./files.js";
import { call } from "./sftp-call.js";

/**
 * Over SSH the process that creates a temp file is the SFTP server of one channel (OpenSSH runs
 * one per channel, and it ends with the channel or the connection). So that process is the
 * writer a temp name records: when the host process dies mid-write, or the connection drops, the
 * SFTP server goes with it, and the next write to the directory (from any host) finds the writer
 * dead through the remote `/proc`.
 */
const owners = new WeakMap<SFTPWrapper, Promise<TempFileOwner>>();

/**
 * The writer identity of an SFTP channel, learned once per channel: `realpath /proc/self` names
 * the server process, `/proc/PID/stat` its start time, the boot id and `readlink
 * /proc/self/ns/pid` its process table. A server without `/proc` (another OS, a chroot) gets a
 * domain no other writer has: its temp files are then swept by age only.
 */
export function sftpWriter(sftp: SFTPWrapper): Promise<TempFileOwner> {
  let owner = owners.get(sftp);
  if (!owner) {
    owner = learnWriter(sftp).catch(() => ({
      domain: randomBytes(6).toString("hex"),
      pid: 0,
      start: "0",
    }));
    owners.set(sftp, owner);
  }
  return owner;
}

async function learnWriter(sftp: SFTPWrapper): Promise<TempFileOwner> {
  const [self, bootId, namespace] = await Promise.all([
    call<string>((cb) => sftp.realpath("/proc/self", cb)),
    readSmallFile(sftp, "/proc/sys/kernel/random/boot_id"),
    call<string>((cb) => sftp.readlink("/proc/self/ns/pid", cb)),
  ]);
  const pid = Number(self.slice("/proc/".length));
  const start = await remoteProcessStart(sftp, pid);
  if (!Number.isSafeInteger(pid) || pid <= 0 || start === undefined) throw new Error("no usable /proc");
  return { domain: tempFileDomain(bootId, namespace), pid, start };
}

/** Start time of remote process `pid`, or `undefined` when none runs (or /proc says nothing). */
async function remoteProcessStart(sftp: SFTPWrapper, pid: number): Promise<string | undefined> {
  const stat = await readSmallFile(sftp, `/proc/${pid}/stat`).catch(() => undefined);
  return stat === undefined ? undefined : runningProcessStart(stat);
}

/** A short file read in one request (files under /proc report size 0, so no fstat first). */
async function readSmallFile(sftp: SFTPWrapper, path: string): Promise<string> {
  const handle = await call<Buffer>((cb) => sftp.open(path, "r", cb));
  try {
    const buffer = Buffer.alloc(4096);
    const bytes = await new Promise<number>((resolve, reject) =>
      sftp.read(handle, buffer, 0, buffer.length, 0, (error, count) =>
        error ? reject(error) : resolve(count),
      ),
    );
    return buffer.subarray(0, bytes).toString("utf8");
  } finally {
    sftp.close(handle, () => {});
  }
}

/**
 * Where the file this channel's SFTP server holds open under the (unique) name `name` is now:
 * found through the server's own `/proc/self/fd`, so a directory moved or swapped for a link
 * since the file was created does not matter. `undefined` without /proc, or when no open file
 * has that name.
 */
export async function locateOpenFile(sftp: SFTPWrapper, name: string): Promise<string | undefined> {
  try {
    const fds = await call<{ filename: string }[]>((cb) => sftp.readdir("/proc/self/fd", cb));
    const links = await Promise.all(
      fds.map((fd) =>
        call<string>((cb) => sftp.readlink(`/proc/self/fd/${fd.filename}`, cb)).catch(() => ""),
      ),
    );
    return links.find((link) => link.startsWith("/") && link.slice(link.lastIndexOf("/") + 1) === name);
  } catch {
    return undefined;
  }
}

/**
 * Removes the temp files of dead writers from `directory` (see `isAbandonedTempFile`): SFTP
 * servers that are gone on the remote host, or writers of another process table whose file has
 * not changed for an hour. Never fails the write that runs it.
 */
export async function sweepAbandonedTempFiles(sftp: SFTPWrapper, directory: string): Promise<void> {
  try {
    const self = await sftpWriter(sftp);
    const entries = await call<{ filename: string; attrs: Stats }[]>((cb) => sftp.readdir(directory, cb));
    for (const entry of entries) {
      const parsed = parseTempFileName(entry.filename);
      if (!parsed || typeOfMode(entry.attrs.mode) !== "file") continue;
      const startOfPid =
        parsed.owner.domain === self.domain ? await remoteProcessStart(sftp, parsed.owner.pid) : undefined;
      const ageMs = Date.now() - entry.attrs.mtime * 1000;
      if (!isAbandonedTempFile(parsed.owner, { domain: self.domain, startOfPid, ageMs })) continue;
      const path = `${directory === "/" ? "" : directory}/${entry.filename}`;
      await call((cb) => sftp.unlink(path, cb)).catch(() => undefined);
    }
  } catch {
    // Nothing to sweep, or nothing we may sweep: the write goes on regardless.
  }
}
