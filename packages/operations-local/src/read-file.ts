import { OperationError, type ReadFileOptions, throwIfAborted } from "@tackle/operations";
import { guarded } from "./guard.js";
import { openRegularFile } from "./open-regular.js";

const CHUNK_BYTES = 1 << 20;

/**
 * Reads a whole file (a regular one: see `openRegularFile`). With `maxBytes` the size is checked on the open handle before reading and
 * the read stops one byte past the limit, so a file that grows while being read still fails with
 * `too_large` instead of being loaded whole.
 */
export function readFile(path: string, options: ReadFileOptions = {}): Promise<Uint8Array> {
  const { signal, maxBytes } = options;
  return guarded("readFile", path, signal, async () => {
    const { handle, stats } = await openRegularFile(path, "readFile");
    try {
      if (maxBytes === undefined) return asView(await handle.readFile(signal ? { signal } : {}));
      if (stats.size > maxBytes) throw tooLarge(path, stats.size, maxBytes);
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        throwIfAborted(signal, "readFile");
        const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        chunks.push(buffer.subarray(0, bytesRead));
        total += bytesRead;
        if (total > maxBytes) throw tooLarge(path, total, maxBytes);
      }
      return asView(Buffer.concat(chunks, total));
    } finally {
      await handle.close();
    }
  });
}

/** A plain Uint8Array over the Buffer's memory: no copy of a possibly large file. */
function asView(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}

function tooLarge(path: string, size: number, maxBytes: number): OperationError {
  return new OperationError(
    "too_large",
    `readFile: ${path} is ${size} bytes, above the limit of ${maxBytes}`,
    {
      operation: "readFile",
      path,
    },
  );
}
