import type { FileHandle } from "node:fs/promises";
import { type OpenReadOptions, OperationError, throwIfAborted, toOperationError } from "@tackle/operations";
import { checkPath } from "./guard.js";
import { openRegularFile } from "./open-regular.js";

/** The first chunk: enough for a small file or a sniff of a large one. */
const FIRST_CHUNK_BYTES = 64 * 1024;
/**
 * The largest chunk, reached by doubling: a reader that goes on through a large file pays one
 * read and one buffer per MiB, not per 64 KiB (a 1 GiB read in 64 KiB chunks spent more time in
 * 16,000 thread-pool round trips and their garbage than in the bytes).
 */
const MAX_CHUNK_BYTES = 1024 * 1024;

/**
 * Streams a file from `start` in chunks of 64 KiB growing to 1 MiB with positional reads, one
 * chunk read ahead: the start of a huge file is never read, and memory stays two chunks whatever
 * the size. Errors (and an abort before or between chunks) surface from the iterator as
 * `OperationError`s.
 */
export async function* openRead(path: string, options: OpenReadOptions = {}): AsyncGenerator<Uint8Array> {
  const { signal } = options;
  const start = options.start ?? 0;
  checkPath(path, "openRead");
  if (!Number.isSafeInteger(start) || start < 0) {
    throw new OperationError(
      "invalid_argument",
      `openRead: start must be a non-negative integer, got ${start}`,
      {
        operation: "openRead",
        path,
      },
    );
  }
  throwIfAborted(signal, "openRead");
  let handle: FileHandle;
  try {
    ({ handle } = await openRegularFile(path, "openRead"));
  } catch (error) {
    throw toOperationError(error, { operation: "openRead", path });
  }
  // The next chunk is read while the consumer works on this one (one read ahead): on a large
  // file the copy from the page cache and the consumer's work overlap.
  let ahead: Promise<{ buffer: Uint8Array; bytesRead: number }> | undefined;
  const readAt = (position: number, size: number) => {
    // A fresh buffer per chunk (the consumer may keep the previous one), unless it gives its own.
    const buffer = memoryFor(size, options.into, path);
    const read = handle
      .read(buffer, 0, buffer.length, position)
      .then(({ bytesRead }) => ({ buffer, bytesRead }));
    // Awaited below, or dropped when the consumer stops early: never an unhandled rejection.
    read.catch(() => {});
    return read;
  };
  try {
    let position = start;
    let size = FIRST_CHUNK_BYTES;
    ahead = readAt(position, size);
    for (;;) {
      throwIfAborted(signal, "openRead");
      let chunk: { buffer: Uint8Array; bytesRead: number };
      try {
        chunk = await ahead;
      } catch (error) {
        throw toOperationError(error, { operation: "openRead", path });
      }
      if (chunk.bytesRead === 0) return;
      position += chunk.bytesRead;
      size = Math.min(size * 2, MAX_CHUNK_BYTES);
      ahead = readAt(position, size);
      yield new Uint8Array(chunk.buffer.buffer, chunk.buffer.byteOffset, chunk.bytesRead);
    }
  } finally {
    // Closing waits for a read in flight; its result is not wanted.
    await ahead?.catch(() => {});
    await handle.close();
  }
}

/** Where the next chunk goes: the consumer's memory (`into`), or a new buffer of `size` bytes. */
function memoryFor(size: number, into: OpenReadOptions["into"], path: string): Uint8Array {
  const given = into?.(size);
  if (given === undefined) return Buffer.allocUnsafe(size);
  if (given.length === 0) {
    // Zero bytes read would look like the end of the file.
    throw new OperationError("invalid_argument", "openRead: into returned no memory to read into", {
      operation: "openRead",
      path,
    });
  }
  return given.length > size ? given.subarray(0, size) : given;
}
