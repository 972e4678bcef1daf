import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { tempDir } from "./helpers.js";

const ops = createLocalOperations();

/** Deterministic bytes of every value, so a chunk read into the wrong place shows. */
function sample(length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 7 + (i >> 11)) & 0xff;
  return bytes;
}

describe("local openRead: reading into the consumer's memory (into)", () => {
  it("reads each chunk into the memory into hands out, two regions in turn, giving the file's bytes", async () => {
    const dir = await tempDir();
    const file = join(dir, "big.bin");
    const content = sample(3 * 1024 * 1024 + 4321);
    await writeFile(file, content);
    const memory = new Uint8Array(2 * 1024 * 1024);
    const regions = [memory.subarray(0, 1024 * 1024), memory.subarray(1024 * 1024)];
    let handedOut = 0;
    const into = (size: number) => regions[handedOut++ % 2]?.subarray(0, size);
    const copies: Buffer[] = [];
    for await (const chunk of ops.openRead(file, { into, start: 5 })) {
      // Every chunk is a view of the given memory; the consumer copies it before the next one.
      expect(chunk.buffer).toBe(memory.buffer);
      copies.push(Buffer.from(chunk));
    }
    expect(Buffer.concat(copies).equals(content.subarray(5))).toBe(true);
    expect(handedOut).toBeGreaterThan(3);
  });

  it("reads into a buffer of its own when into returns undefined, and reads no more than a smaller memory holds", async () => {
    const dir = await tempDir();
    const file = join(dir, "f.bin");
    const content = sample(300_000);
    await writeFile(file, content);
    const small = [new Uint8Array(1000), new Uint8Array(1000)];
    let calls = 0;
    const into = (_size: number) => (calls++ === 0 ? undefined : small[calls % 2]);
    const chunks: Buffer[] = [];
    for await (const chunk of ops.openRead(file, { into })) chunks.push(Buffer.from(chunk));
    expect(chunks[0]?.length).toBe(64 * 1024);
    expect(chunks.slice(1).every((chunk) => chunk.length <= 1000)).toBe(true);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  });

  it("refuses empty memory with invalid_argument (zero bytes read would end the file early)", async () => {
    const dir = await tempDir();
    const file = join(dir, "f.bin");
    await writeFile(file, "some bytes");
    const read = async () => {
      for await (const _ of ops.openRead(file, { into: () => new Uint8Array(0) })) break;
    };
    await expect(read()).rejects.toMatchObject({ code: "invalid_argument", operation: "openRead" });
  });
});
