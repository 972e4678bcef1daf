import { describe, expect, it } from "vitest";
import { FrameReader } from "../src/spawner/frame-reader.js";

/** One frame as the helper writes it. */
function frame(kind: number, id: number, fd: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(10);
  header.writeUInt32BE(6 + payload.length, 0);
  header.writeUInt8(kind, 4);
  header.writeUInt32BE(id, 5);
  header.writeUInt8(fd, 9);
  return Buffer.concat([header, payload]);
}

describe("FrameReader", () => {
  it("yields the same frames in the same order whatever the chunk boundaries", () => {
    const frames = Array.from({ length: 200 }, (_, i) =>
      frame(3, i % 7, 1 + (i % 2), Buffer.alloc((i * 37) % 5000, i % 251)),
    );
    const wire = Buffer.concat(frames);
    for (const size of [1, 3, 10, 11, 4096, 65_536, wire.length]) {
      const seen: Buffer[] = [];
      const reader = new FrameReader((kind, id, fd, payload) => {
        seen.push(frame(kind, id, fd, Buffer.from(payload)));
        return false;
      });
      for (let at = 0; at < wire.length; at += size) reader.push(wire.subarray(at, at + size));
      expect(Buffer.concat(seen).equals(wire)).toBe(true);
    }
  });

  it("after a frame that asks to wait, hands on the rest only on a later turn of the event loop, in order", async () => {
    const seen: number[] = [];
    const reader = new FrameReader((kind, id) => {
      seen.push(id);
      return kind === 1;
    });
    reader.push(Buffer.concat([frame(1, 1, 0, Buffer.from("{}")), frame(3, 2, 1, Buffer.from("x"))]));
    reader.push(frame(3, 3, 1, Buffer.from("y")));
    let read = false;
    reader.whenRead(() => {
      read = true;
    });
    await Promise.resolve();
    expect(seen).toEqual([1]);
    expect(read).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1, 2, 3]);
    expect(read).toBe(true);
  });
});
