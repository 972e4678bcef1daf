import {
  notRegularFileError,
  type OpenReadOptions,
  OperationError,
  type ReadFileOptions,
  raceAbort,
  throwIfAborted,
} from "@tackle/operations";
import type { SFTPWrapper, Stats } from "ssh2";
import { raceLost, type SshConnection } from "./connection.js";
import { refined, typeOfMode } from "./files.js";
import { call, checkRemotePath, sftpError, withSftp } from "./sftp-call.js";

/** Bytes asked for by one SFTP read request; OpenSSH serves up to 256 KiB per request. */
const READ_SIZE = 64 * 1024;
/** Read requests kept in flight, so a big file streams at link speed instead of one RTT per chunk. */
const READ_AHEAD = 8;

/**
 * Opens a regular file. The type is checked with `stat` before the open: the SFTP server opens
 * whatever it is asked to, and opening a FIFO with no writer would block it (and with it every
 * later request on the channel) for good. SFTP has no non-blocking open, so a FIFO swapped in
 * between the stat and the open still blocks the server: see docs/write-safety.md.
 */
async function openFile(
  sftp: SFTPWrapper,
  path: string,
  operation: string,
): Promise<{ handle: Buffer; stats: Stats }> {
  let handle: Buffer;
  try {
    const type = typeOfMode((await call<Stats>((cb) => sftp.stat(path, cb))).mode);
    if (type === "directory") {
      throw new OperationError("is_directory", `${operation}: is a directory: ${path}`, { operation, path });
    }
    if (type !== "file") throw notRegularFileError(operation, path);
    handle = await call<Buffer>((cb) => sftp.open(path, "r", cb));
  } catch (error) {
    throw await refined(sftp, error, operation, path);
  }
  try {
    const stats = await call<Stats>((cb) => sftp.fstat(handle, cb));
    if (typeOfMode(stats.mode) === "directory") {
      throw new OperationError("is_directory", `${operation}: is a directory: ${path}`, { operation, path });
    }
    if (typeOfMode(stats.mode) !== "file") throw notRegularFileError(operation, path);
    return { handle, stats };
  } catch (error) {
    closeQuietly(sftp, handle);
    throw error;
  }
}

function closeQuietly(sftp: SFTPWrapper, handle: Buffer): void {
  // Not awaited: the reply is not needed, and waiting would cost a round trip per file.
  try {
    sftp.close(handle, () => {});
  } catch {
    // The channel is already gone.
  }
}

/** One read request; resolves with the bytes read (empty at end of file). */
function readAt(sftp: SFTPWrapper, handle: Buffer, position: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const buffer = Buffer.allocUnsafe(length);
    sftp.read(handle, buffer, 0, length, position, (error, bytesRead) => {
      // ssh2 reports end of file as an EOF status error.
      if (error && (error as { code?: unknown }).code !== 1) reject(error);
      else resolve(buffer.subarray(0, error ? 0 : bytesRead));
    });
  });
}

/** `readFile`: refuses above `maxBytes` before reading anything. */
export function readFile(
  connection: SshConnection,
  path: string,
  options?: ReadFileOptions,
): Promise<Uint8Array> {
  return withSftp(connection, "readFile", path, options?.signal, async (sftp) => {
    const { handle, stats } = await openFile(sftp, path, "readFile");
    try {
      if (options?.maxBytes !== undefined && stats.size > options.maxBytes) {
        throw new OperationError(
          "too_large",
          `readFile: ${path} is ${stats.size} bytes, above ${options.maxBytes}`,
          {
            operation: "readFile",
            path,
          },
        );
      }
      const parts: Buffer[] = [];
      let position = 0;
      // Read what fstat announced with requests in flight, then keep going until EOF in case it grew.
      for (;;) {
        throwIfAborted(options?.signal, "readFile");
        const wanted = Math.max(stats.size - position, READ_SIZE);
        const count = Math.min(READ_AHEAD, Math.ceil(wanted / READ_SIZE));
        const batch = await Promise.all(
          Array.from({ length: count }, (_, i) => readAt(sftp, handle, position + i * READ_SIZE, READ_SIZE)),
        );
        let ended = false;
        for (const part of batch) {
          if (part.length === 0) ended = true;
          if (ended) break;
          parts.push(part);
          position += part.length;
          if (part.length < READ_SIZE) ended = true;
        }
        if (options?.maxBytes !== undefined && position > options.maxBytes) {
          throw new OperationError("too_large", `readFile: ${path} grew above ${options.maxBytes} bytes`, {
            operation: "readFile",
            path,
          });
        }
        if (ended) break;
      }
      return new Uint8Array(Buffer.concat(parts, position));
    } finally {
      closeQuietly(sftp, handle);
    }
  });
}

/**
 * `openRead`: streams from `start` with a few read requests in flight. Only what is read is
 * transferred, so the tail of a huge file costs the tail. The handle is closed when the consumer
 * stops early, on abort, and at the end.
 */
export async function* openRead(
  connection: SshConnection,
  path: string,
  options?: OpenReadOptions,
): AsyncGenerator<Uint8Array> {
  checkRemotePath(path, "openRead");
  const signal = options?.signal;
  const { sftp, handle, session } = await withSftp(
    connection,
    "openRead",
    path,
    signal,
    async (s, session) => ({
      sftp: s,
      session,
      ...(await openFile(s, path, "openRead")),
    }),
  );
  let position = Math.max(0, options?.start ?? 0);
  const pending: Promise<Buffer>[] = [];
  let requested = position;
  try {
    for (;;) {
      while (pending.length < READ_AHEAD) {
        const request = readAt(sftp, handle, requested, READ_SIZE);
        // Marked handled now: while the consumer holds a chunk, the generator is suspended and a
        // dropped connection rejects these read-aheads with nobody awaiting them yet.
        request.catch(() => {});
        pending.push(request);
        requested += READ_SIZE;
      }
      let part: Buffer;
      try {
        part = await raceAbort(
          raceLost(pending.shift() as Promise<Buffer>, session, "openRead", path),
          signal,
          "openRead",
        );
      } catch (error) {
        throw sftpError(error, "openRead", path);
      }
      if (part.length === 0) return;
      position += part.length;
      yield new Uint8Array(part.buffer, part.byteOffset, part.length);
      if (part.length < READ_SIZE) {
        // A short read is the end of the file unless it is still growing; one more round decides.
        pending.length = 0;
        requested = position;
      }
    }
  } finally {
    if (!session.isLost) closeQuietly(sftp, handle);
  }
}
