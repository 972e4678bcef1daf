import { createHash } from "node:crypto";
import type { Operations } from "@tackle/operations";
import { OutputCapture } from "./capture.js";

type ReadBackOperations = Pick<Operations, "openRead">;

/**
 * Reads the last `maxBytes` of a file in the environment into a fresh {@link OutputCapture}
 * (the bytes before are skipped, never transferred). `size` is the file's current size. When
 * the whole file fits, the capture also hashes it (`digest()`), so a small output costs one read.
 */
export async function readTail(
  ops: ReadBackOperations,
  path: string,
  size: number,
  maxBytes: number,
  tailChars: number,
  signal?: AbortSignal,
): Promise<OutputCapture> {
  const start = Math.max(0, size - maxBytes);
  const capture = new OutputCapture(tailChars, { hash: start === 0 });
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

/** Bytes of each of the two buffers {@link hashFile} reads into. */
export const HASH_READ_BYTES = 1024 * 1024;

/**
 * Hex sha256 and byte count of a whole file in the environment, streamed in constant memory:
 * read into two buffers used in turn (`OpenReadOptions.into`), since a fresh buffer per chunk
 * left hundreds of MB of garbage outside the JS heap for the collector to notice late, and
 * the allocator kept most of it (a 256 MB artifact raised the process's RSS by about 35 MB).
 */
export async function hashFile(
  ops: ReadBackOperations,
  path: string,
  signal?: AbortSignal,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  const buffers: Uint8Array[] = [];
  let turn = 0;
  const into = (wanted: number): Uint8Array => {
    const index = turn++ % 2;
    buffers[index] ??= new Uint8Array(HASH_READ_BYTES);
    const buffer = buffers[index] as Uint8Array;
    return wanted < buffer.length ? buffer.subarray(0, wanted) : buffer;
  };
  for await (const chunk of ops.openRead(path, { into, ...(signal ? { signal } : {}) })) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest("hex"), size };
}

/** Bytes `[start, end)` of a file in the environment (the caller bounds the length). */
export async function readRange(
  ops: ReadBackOperations,
  path: string,
  start: number,
  end: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let remaining = end - start;
  if (remaining <= 0) return new Uint8Array(0);
  for await (const chunk of ops.openRead(path, { start, ...(signal ? { signal } : {}) })) {
    const piece = chunk.length > remaining ? chunk.subarray(0, remaining) : chunk;
    parts.push(piece);
    remaining -= piece.length;
    if (remaining <= 0) break;
  }
  return Buffer.concat(parts);
}
