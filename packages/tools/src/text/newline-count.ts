/**
 * Counting the newline bytes (0x0a) of a buffer, for line counts of files far larger than what is
 * shown (the tail of a 1 GiB log has 13 million lines before it). One `Buffer.indexOf` per line
 * costs a call per line; a WebAssembly SIMD loop compares 16 bytes per step and sums the hits
 * every 255 steps, about twice as fast including the copy into its memory. The module is 193
 * bytes assembled by hand (one function, `count(offset, length)` over a 16-byte multiple of its
 * memory); where WebAssembly SIMD is missing, `indexOf` counts instead.
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

type Counter = (bytes: Uint8Array) => number;

let simd: Counter | null | undefined;

/** Number of 0x0a bytes in `bytes`. */
export function countNewlines(bytes: Uint8Array): number {
  if (bytes.length < SMALL_BYTES) return countByIndexOf(bytes);
  if (simd === undefined) simd = loadSimdCounter();
  return simd ? simd(bytes) : countByIndexOf(bytes);
}

/** Which way {@link countNewlines} counts large buffers here: `simd`, or `indexOf` without it. */
export function newlineCounterKind(): "simd" | "indexOf" {
  if (simd === undefined) simd = loadSimdCounter();
  return simd ? "simd" : "indexOf";
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

function loadSimdCounter(): Counter | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return null;
  let exports: Record<string, unknown>;
  try {
    exports = new wasm.Instance(new wasm.Module(Buffer.from(COUNT_MODULE_BASE64, "base64"))).exports;
  } catch {
    return null;
  }
  const count = exports.count as (offset: number, length: number) => number;
  const memory = new Uint8Array((exports.memory as { buffer: ArrayBuffer }).buffer);
  return (bytes) => {
    let total = 0;
    for (let from = 0; from < bytes.length; from += SLICE_BYTES) {
      const slice = bytes.subarray(from, Math.min(bytes.length, from + SLICE_BYTES));
      memory.set(slice, 0);
      const vectors = slice.length - (slice.length % 16);
      total += count(0, vectors);
      for (let i = vectors; i < slice.length; i++) if (memory[i] === NEWLINE) total++;
    }
    return total;
  };
}
