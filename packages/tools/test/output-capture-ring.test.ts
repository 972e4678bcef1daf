import { createHash, randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OutputCapture } from "../src/shell/capture.js";

/** What the tail must be: the last `tailBytes` bytes decoded, cut to a character and a line when the start is gone. */
function expectedTail(all: Buffer, tailBytes: number): string {
  if (all.length <= tailBytes) return new TextDecoder().decode(all);
  let bytes = all.subarray(all.length - tailBytes);
  let lead = 0;
  while (lead < bytes.length && lead < 3 && ((bytes[lead] as number) & 0xc0) === 0x80) lead++;
  bytes = bytes.subarray(lead);
  const text = new TextDecoder().decode(bytes);
  const newline = text.indexOf("\n");
  return newline === -1 ? text : text.slice(newline + 1);
}

describe("output capture keeps the last bytes in a ring", () => {
  it("gives the same tail, total and hash as the whole output, whatever the chunking", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "\n", "é", "€", "😀", "\r"), maxLength: 400 });
    fc.assert(
      fc.property(
        text,
        fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 8, max: 300 }),
        (value, sizes, tailBytes) => {
          const all = Buffer.from(value);
          const capture = new OutputCapture(tailBytes, { hash: true });
          for (let at = 0, i = 0; at < all.length; i++) {
            const size = sizes[i % sizes.length] as number;
            capture.push(all.subarray(at, at + size));
            at += size;
          }
          capture.end();
          expect(capture.totalBytes).toBe(all.length);
          expect(capture.cut).toBe(all.length > tailBytes);
          expect(capture.digest()).toBe(createHash("sha256").update(all).digest("hex"));
          expect(capture.tail()).toBe(expectedTail(all, tailBytes));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("holds back a character split across chunks until its last byte comes", () => {
    const capture = new OutputCapture(1024);
    const euro = Buffer.from("x€");
    capture.push(euro.subarray(0, 2));
    expect(capture.tail()).toBe("x");
    capture.push(euro.subarray(2));
    expect(capture.tail()).toBe("x€");
    capture.push(Buffer.from([0xe2]));
    capture.end();
    expect(capture.tail()).toBe("x€\ufffd");
  });

  it("keeps at most tailBytes of a large output and the end of a chunk larger than the ring", () => {
    const capture = new OutputCapture(4096);
    const big = randomBytes(1024 * 1024).map((b) => 0x61 + (b % 26));
    capture.push(big);
    capture.push(Buffer.from("\nlast line\n"));
    capture.end();
    expect(capture.cut).toBe(true);
    expect(capture.tail().endsWith("last line\n")).toBe(true);
    expect(capture.tail().length).toBeLessThanOrEqual(4096);
  });

  it("after a skip, restarts on a character and drops the partial first line", () => {
    const capture = new OutputCapture(1024, { hash: true });
    capture.skip(10);
    capture.push(Buffer.from("€half line\nwhole line\n").subarray(1));
    capture.end();
    expect(capture.totalBytes).toBe(10 + Buffer.byteLength("€half line\nwhole line\n") - 1);
    expect(capture.digest()).toBeUndefined();
    expect(capture.tail()).toBe("whole line\n");
  });
});
