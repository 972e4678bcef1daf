import type { FileHandle } from "node:fs/promises";
import { type OpenReadOptions, OperationError, throwIfAborted, toOperationError } from "@tackle/operations";
import { checkPath } from "./guard.js";
import { openRegularFile } from "./open-regular.js";

const CHUNK_BYTES = 64 * 1024;

/**
 * Streams a file from `start` in chunks of at most 64 KiB with positional reads: the start of a
 * huge file is never read, and memory stays one chunk whatever the size. Errors (and an abort
 * before or between chunks) surface from the iterator as `OperationError`s.
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
  try {
    let position = start;
    for (;;) {
      throwIfAborted(signal, "openRead");
      // A fresh buffer per chunk: the consumer may keep the previous one.
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position));
      } catch (error) {
        throw toOperationError(error, { operation: "openRead", path });
      }
      if (bytesRead === 0) return;
      position += bytesRead;
      yield new Uint8Array(buffer.buffer, buffer.byteOffset, bytesRead);
    }
  } finally {
    await handle.close();
  }
}
