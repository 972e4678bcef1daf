/**
 * Counting the newline bytes (0x0a) of a buffer, for line counts of files far larger than what is
 * shown (the tail of a 1 GiB log has 13 million lines before it). One `Buffer.indexOf` per line
 * costs a call per line; a WebAssembly SIMD loop compares 16 bytes per step and sums the hits
 * every 255 steps, about twice as fast including the copy into its memory. The module is 193
 * bytes assembled by hand (one function, `count(offset, length)` over a 16-byte multiple of its
 * memory); where WebAssembly SIMD is missing, `indexOf` counts instead. A read of one file gets a
 * counter of its own ({@link createNewlineCounter}) whose memory the file's chunks are read into
 * (`openRead`'s `into`): counted where they landed, with no copy and no 1 MiB buffer allocated
 * per chunk (on a 1 GiB tail, those buffers cost more in garbage collection than the count).
 */

/**
 * The module: memory of 17 pages (one slice plus room), `count(offset, length)`: `i8x16.eq`
 * against a splat of 0x0a, lanes subtracted into a byte accumulator, which is widened
 * (`extadd_pairwise`) and added into the total every 255 vectors, before a lane could wrap.
 */
const COUNT_MODULE_BASE64 =
  "AGFzbQEAAAABBwFgAn9/AX8DAgEABQMBABEHEgIFY291bnQAAAZtZW1vcnkCAAqQAQGNAQIDfwJ7QQr9DyEGIAAgAWohAwJAA0AgACADTw0BIABB8B9qIgQgAyAEIANJGyEE/QwAAAAAAAAAAAAAAAAAAAAAIQUDQCAFIAD9AAAAIAb9I/1xIQUgAEEQaiIAIARJDQALIAX9ff1/IQUgAiAF/RsAaiAF/RsBaiAF/RsCaiAF/RsDaiECDAALCyACCw==";

/** Bytes copied into the module's memory per call (its memory holds 17 pages of 64 KiB). */
const SLICE_BYTES = 1024 * 1024;

/** Below this, the copy costs more than it saves. */
const SMALL_BYTES = 4096;

const NEWLINE = 0x0a;

/** A counter of 0x0a bytes with WebAssembly memory of its own that a reader can fill directly. */
export interface NewlineCounter {
  /**
   * Number of 0x0a bytes in `bytes`. Bytes that lie in memory from {@link chunkMemory} are
   * counted where they are; others are copied into the module's memory 1 MiB at a time.
   */
  count(bytes: Uint8Array): number;
  /**
   * Memory to read a reader's next chunk into (at most `size` bytes, at most 1 MiB), two regions
   * handed out in turn: a reader one chunk ahead fills one while the other is counted. The caller
   * must be done with a chunk before it asks for the chunk after the next. Undefined without SIMD
   * (the caller then reads into buffers of its own).
   */
  chunkMemory(size: number): Uint8Array | undefined;
}

/** Regions {@link NewlineCounter.chunkMemory} hands out in turn. */
const CHUNK_REGIONS = 2;

const WASM_PAGE_BYTES = 64 * 1024;

let shared: NewlineCounter | null | undefined;

/** Number of 0x0a bytes in `bytes`. */
export function countNewlines(bytes: Uint8Array): number {
  if (bytes.length < SMALL_BYTES) return countByIndexOf(bytes);
  if (shared === undefined) shared = loadSimdCounter(0);
  return shared ? shared.count(bytes) : countByIndexOf(bytes);
}

/** Which way {@link countNewlines} counts large buffers here: `simd`, or `indexOf` without it. */
export function newlineCounterKind(): "simd" | "indexOf" {
  if (shared === undefined) shared = loadSimdCounter(0);
  return shared ? "simd" : "indexOf";
}

/**
 * A counter for one reader (one read of one file): its own module instance, so memory handed to
 * one reader is never filled by another one running at the same time. The instance (3 MiB of
 * memory) is made on first use: a read of a small file never needs it.
 */
export function createNewlineCounter(): NewlineCounter {
  let counter: NewlineCounter | undefined;
  const instance = () => {
    counter ??= loadSimdCounter(CHUNK_REGIONS) ?? {
      count: (bytes) => countByIndexOf(bytes),
      chunkMemory: () => undefined,
    };
    return counter;
  };
  return {
    count: (bytes) =>
      counter === undefined && bytes.length < SMALL_BYTES ? countByIndexOf(bytes) : instance().count(bytes),
    chunkMemory: (size) => instance().chunkMemory(size),
  };
}

function countByIndexOf(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let at = buffer.indexOf(NEWLINE); at !== -1; at = buffer.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/** The part of the WebAssembly JavaScript API used here (this package's types hold no DOM lib). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

let compiled: object | null | undefined;

/**
 * A SIMD counter whose memory holds the copy slice and then `regions` chunk regions of
 * {@link SLICE_BYTES}; null where WebAssembly SIMD is missing.
 */
function loadSimdCounter(regions: number): NewlineCounter | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm || compiled === null) return null;
  let exports: Record<string, unknown>;
  try {
    compiled ??= new wasm.Module(Buffer.from(COUNT_MODULE_BASE64, "base64"));
    exports = new wasm.Instance(compiled).exports;
  } catch {
    compiled = null;
    return null;
  }
  const count = exports.count as (offset: number, length: number) => number;
  const wasmMemory = exports.memory as { buffer: ArrayBuffer; grow(pages: number): number };
  // Grown once, before any view is taken: growing detaches the views of the old buffer.
  if (regions > 0) wasmMemory.grow((regions * SLICE_BYTES) / WASM_PAGE_BYTES);
  const memory = new Uint8Array(wasmMemory.buffer);
  const countAt = (offset: number, length: number) => {
    const vectors = length - (length % 16);
    let total = count(offset, vectors);
    for (let i = offset + vectors; i < offset + length; i++) if (memory[i] === NEWLINE) total++;
    return total;
  };
  let next = 0;
  return {
    count(bytes) {
      if (bytes.buffer === memory.buffer) return countAt(bytes.byteOffset, bytes.length);
      let total = 0;
      for (let from = 0; from < bytes.length; from += SLICE_BYTES) {
        const slice = bytes.subarray(from, Math.min(bytes.length, from + SLICE_BYTES));
        memory.set(slice, 0);
        total += countAt(0, slice.length);
      }
      return total;
    },
    chunkMemory(size) {
      if (regions === 0) return undefined;
      const start = SLICE_BYTES * (1 + next);
      next = (next + 1) % regions;
      return memory.subarray(start, start + Math.min(size, SLICE_BYTES));
    },
  };
}
