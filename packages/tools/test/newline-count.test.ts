/**
 * The newline count used for lines outside a read's window: the WebAssembly SIMD path (buffers of
 * 4 KiB and more, copied in 1 MiB slices) and the indexOf path give the exact count of 0x0a bytes
 * for any length and offset, and a read of a file's tail reports the same lines and total either way.
 */
import { describe, expect, it } from "vitest";
import { countNewlines, createNewlineCounter, newlineCounterKind } from "../src/text/newline-count.js";

function naive(bytes: Uint8Array): number {
  let count = 0;
  for (const byte of bytes) if (byte === 0x0a) count++;
  return count;
}

/** Deterministic bytes with newlines at irregular places (and bytes 0x0a +/- 1 and 0x8a around). */
function sample(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    const pick = state >>> 24;
    bytes[i] = pick < 12 ? 0x0a : pick < 20 ? 0x0b : pick < 28 ? 0x09 : pick < 36 ? 0x8a : 0x61;
  }
  return bytes;
}

describe("countNewlines", () => {
  it("uses the SIMD module on this Node (20 and later have WebAssembly SIMD)", () => {
    expect(newlineCounterKind()).toBe("simd");
  });

  it("counts every 0x0a byte, for lengths around the vector, slice and small-buffer sizes", () => {
    for (const length of [
      0,
      1,
      15,
      16,
      17,
      4095,
      4096,
      4097,
      65_537,
      1024 * 1024,
      1024 * 1024 + 31,
      3 * 1024 * 1024 + 5,
    ]) {
      const bytes = sample(length, length + 1);
      expect(countNewlines(bytes), `length ${length}`).toBe(naive(bytes));
    }
  });

  it("counts a view at any offset of a larger buffer", () => {
    const whole = sample(2 * 1024 * 1024 + 100, 7);
    for (const [from, to] of [
      [1, 5000],
      [3, 1024 * 1024 + 9],
      [17, whole.length - 3],
    ] as const) {
      const view = whole.subarray(from, to);
      expect(countNewlines(view)).toBe(naive(view));
    }
  });

  it("counts runs of 255 and more newlines in a row (the byte accumulator is widened in time)", () => {
    const bytes = new Uint8Array(1024 * 1024 + 48).fill(0x0a);
    expect(countNewlines(bytes)).toBe(bytes.length);
  });
});

describe("createNewlineCounter: a reader's counter with memory of its own", () => {
  it("hands out two regions of its memory in turn, no larger than asked or than 1 MiB", () => {
    const counter = createNewlineCounter();
    const first = counter.chunkMemory(1024 * 1024);
    const second = counter.chunkMemory(2 * 1024 * 1024);
    const third = counter.chunkMemory(100);
    expect(first?.length).toBe(1024 * 1024);
    expect(second?.length).toBe(1024 * 1024);
    expect(third?.length).toBe(100);
    expect(first?.buffer).toBe(second?.buffer);
    expect(second?.byteOffset).not.toBe(first?.byteOffset);
    expect(third?.byteOffset).toBe(first?.byteOffset);
  });

  it("counts bytes read into its memory where they are, at any length, and others by copying", () => {
    const counter = createNewlineCounter();
    for (const length of [1, 17, 4095, 65_537, 1024 * 1024]) {
      const memory = counter.chunkMemory(length);
      if (!memory) throw new Error("expected SIMD memory");
      const bytes = sample(length, length + 3);
      memory.set(bytes);
      expect(counter.count(memory.subarray(0, length)), `length ${length}`).toBe(naive(bytes));
      expect(counter.count(bytes), `copied, length ${length}`).toBe(naive(bytes));
    }
  });

  it("gives each reader memory of its own", () => {
    const one = createNewlineCounter().chunkMemory(16);
    const other = createNewlineCounter().chunkMemory(16);
    expect(one?.buffer).not.toBe(other?.buffer);
  });
});
