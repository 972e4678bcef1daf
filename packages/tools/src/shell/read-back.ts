import { createHash } from "node:crypto";
import type { Operations } from "@tackle/operations";
import { OutputCapture } from "./capture.js";

type ReadBackOperations = Pick<Operations, "openRead">;

/**
 * Reads the last `maxBytes` of a file in the environment into a fresh {@link OutputCapture}
 * (the bytes before are skipped, never transferred). `size` is the file's current size.
 */
export async function readTail(
  ops: ReadBackOperations,
  path: string,
  size: number,
  maxBytes: number,
  tailChars: number,
  signal?: AbortSignal,
): Promise<OutputCapture> {
  const capture = new OutputCapture(tailChars);
  const start = Math.max(0, size - maxBytes);
  capture.skip(start);
  let remaining = size - start;
  for await (const chunk of ops.openRead(path, { start, ...(signal ? { signal } : {}) })) {
    // The file may still grow (a background child writing after exit): stop at `size`.
    const piece = chunk.length > remaining ? chunk.subarray(0, remaining) : chunk;
    capture.push(piece);
    remaining -= piece.length;
    if (remaining <= 0) break;
  }
  capture.end();
  return capture;
}

/** Hex sha256 and byte count of a whole file in the environment, streamed in constant memory. */
export async function hashFile(
  ops: ReadBackOperations,
  path: string,
  signal?: AbortSignal,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of ops.openRead(path, signal ? { signal } : {})) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest("hex"), size };
}
