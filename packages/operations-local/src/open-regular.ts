import { constants, type Stats } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { notRegularFileError, OperationError } from "@tackle/operations";

/**
 * Read-only, non-blocking, never a controlling terminal. O_NONBLOCK changes nothing for a
 * regular file, but if a FIFO is swapped in between the type check and the open, the open
 * returns at once instead of waiting for a writer (a wait that would hold one of libuv's four
 * threadpool threads for good, abort or not: four of them and every file call of the process hangs).
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Opens `path` for reading when it is a regular file. The type is checked by `stat` first (no
 * open at all for a FIFO, socket or device: opening some devices acts on hardware), and again on
 * the open handle in case the path was swapped in between. A directory is `is_directory`, any
 * other non-regular file `special_file`.
 */
export async function openRegularFile(
  path: string,
  operation: string,
): Promise<{ handle: FileHandle; stats: Stats }> {
  assertRegular(await stat(path), path, operation);
  const handle = await open(path, READ_FLAGS);
  try {
    const stats = await handle.stat();
    assertRegular(stats, path, operation);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function assertRegular(stats: Stats, path: string, operation: string): void {
  if (stats.isFile()) return;
  if (stats.isDirectory()) {
    throw new OperationError("is_directory", `${operation}: is a directory: ${path}`, { operation, path });
  }
  throw notRegularFileError(operation, path);
}
