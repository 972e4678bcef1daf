import { describe, expect, it } from "vitest";
import { decodeText, encodeText } from "../src/text/encoding.js";
import { readLineWindow } from "../src/text/line-window.js";
import { sniffFileType } from "../src/text/sniff.js";

const bytes = (...values: number[]) => Uint8Array.from(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

async function* chunked(data: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

describe("decodeText / encodeText", () => {
  it("round-trips UTF-8 with and without BOM, UTF-16 LE and BE", () => {
    for (const [encoding, hasBom] of [
      ["utf8", false],
      ["utf8", true],
      ["utf16le", true],
      ["utf16be", true],
      ["utf16le", false],
    ] as const) {
      const text = "héllo\r\nwörld 😀\n";
      const encoded = encodeText(text, encoding, hasBom);
      expect(decodeText(encoded), `${encoding} ${hasBom}`).toEqual({ text, encoding, hasBom, lossy: false });
    }
  });

  it("reports invalid UTF-8 as lossy instead of throwing", () => {
    const decoded = decodeText(bytes(0x61, 0xff, 0x62));
    expect(decoded).toMatchObject({ text: "a\ufffdb", encoding: "utf8", lossy: true });
  });
});

describe("sniffFileType", () => {
  it("recognises images by magic bytes", () => {
    expect(sniffFileType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toMatchObject({
      format: "png",
    });
    expect(sniffFileType(bytes(0xff, 0xd8, 0xff, 0xe0))).toMatchObject({ format: "jpeg" });
    expect(sniffFileType(utf8("GIF89a..."))).toMatchObject({ format: "gif" });
    expect(sniffFileType(utf8("RIFF\0\0\0\0WEBPVP8 "))).toMatchObject({
      format: "webp",
      mimeType: "image/webp",
    });
  });

  it("names binary formats", () => {
    expect(sniffFileType(bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1))).toEqual({
      kind: "binary",
      description: "ELF executable",
    });
    expect(sniffFileType(utf8("%PDF-1.7\n"))).toEqual({ kind: "binary", description: "PDF document" });
    expect(sniffFileType(bytes(0x50, 0x4b, 0x03, 0x04, 0))).toMatchObject({ description: "zip archive" });
    expect(sniffFileType(bytes(0x1f, 0x8b, 8, 0))).toMatchObject({ description: "gzip archive" });
    expect(sniffFileType(bytes(1, 2, 3, 0, 5))).toEqual({ kind: "binary", description: "binary data" });
  });

  it("treats text, BOM text and UTF-16 text as text, and weak signatures in text as text", () => {
    expect(sniffFileType(utf8("plain text\n"))).toEqual({ kind: "text" });
    expect(sniffFileType(encodeText("utf-16 text\n", "utf16le", false))).toEqual({ kind: "text" });
    expect(sniffFileType(encodeText("utf-16 text\n", "utf16be", true))).toEqual({ kind: "text" });
    expect(sniffFileType(utf8("BMW notes\nMZ-80 manual\n"))).toEqual({ kind: "text" });
    expect(sniffFileType(bytes(0x4d, 0x5a, 0x90, 0, 3, 0))).toEqual({
      kind: "binary",
      description: "Windows executable",
    });
  });
});

describe("readLineWindow", () => {
  const options = { startLine: 1, maxLines: 10, maxBytes: 1000, maxLineBytes: 1000 };

  it("counts lines exactly across chunk boundaries, kept or not", async () => {
    const text = Array.from({ length: 1000 }, (_, i) => `línea ${i + 1}`).join("\n");
    const data = utf8(text);
    for (const size of [1, 3, 7, 4096]) {
      const window = await readLineWindow(
        data.subarray(0, size),
        chunked(data.subarray(size), size),
        options,
      );
      expect(window.totalLines, `chunk ${size}`).toBe(1000);
      expect(window.lines.slice(0, 2), `chunk ${size}`).toEqual(["línea 1", "línea 2"]);
      expect(window.lines.length).toBe(10);
    }
  });

  it("counts a final newline as the end of the last line", async () => {
    const one = await readLineWindow(utf8("a\nb\n"), chunked(new Uint8Array(0), 1), options);
    const two = await readLineWindow(utf8("a\nb"), chunked(new Uint8Array(0), 1), options);
    expect([one.totalLines, two.totalLines]).toEqual([2, 2]);
  });

  it("keeps the window from startLine and decodes UTF-16 split across chunks", async () => {
    const data = encodeText("one\ntwo\nthree\nfour\n", "utf16be", true);
    const window = await readLineWindow(data.subarray(0, 5), chunked(data.subarray(5), 3), {
      ...options,
      startLine: 3,
    });
    expect(window).toMatchObject({
      lines: ["three", "four"],
      totalLines: 4,
      encoding: "utf16be",
      hasBom: true,
    });
  });

  it("shows a file that ends inside a character as lossy instead of failing", async () => {
    const cut = await readLineWindow(
      bytes(0x61, 0x0a, 0x62, 0xe2, 0x82),
      chunked(new Uint8Array(0), 1),
      options,
    );
    expect(cut).toMatchObject({ lines: ["a", "b\ufffd"], totalLines: 2, lossy: true });
    const odd = encodeText("hi\n", "utf16le", true);
    const oddWindow = await readLineWindow(
      Uint8Array.from([...odd, 0x41]),
      chunked(new Uint8Array(0), 1),
      options,
    );
    expect(oddWindow).toMatchObject({ lines: ["hi", "\ufffd"], totalLines: 2, lossy: true });
  });

  it("caps an overlong line and records its full length", async () => {
    const data = utf8(`${"z".repeat(5000)}\nshort\n`);
    const window = await readLineWindow(data.subarray(0, 100), chunked(data.subarray(100), 100), options);
    expect(window.lines[0]).toBe("z".repeat(1000));
    expect(window.cutLines.get(1)).toBe(5000);
    expect(window.totalLines).toBe(2);
  });
});

describe("readLineWindow from an offset", () => {
  it("skips to the window on raw bytes and still counts and shows exactly", async () => {
    const text = Array.from({ length: 300 }, (_, i) => `ligne ${i + 1} é`).join("\n");
    const data = new TextEncoder().encode(text);
    for (const size of [1, 5, 64, 100_000]) {
      for (const startLine of [2, 150, 300]) {
        const window = await readLineWindow(data.subarray(0, size), chunked(data.subarray(size), size), {
          startLine,
          maxLines: 3,
          maxBytes: 1000,
          maxLineBytes: 1000,
        });
        const expected = [startLine, startLine + 1, startLine + 2]
          .filter((n) => n <= 300)
          .map((n) => `ligne ${n} é`);
        expect(window.lines, `size ${size} start ${startLine}`).toEqual(expected);
        expect(window.totalLines).toBe(300);
      }
    }
  });

  it("counts a file that ends before the window", async () => {
    const data = new TextEncoder().encode("a\nb\nc");
    const window = await readLineWindow(data.subarray(0, 2), chunked(data.subarray(2), 2), {
      startLine: 9,
      maxLines: 3,
      maxBytes: 1000,
      maxLineBytes: 1000,
    });
    expect(window).toMatchObject({ lines: [], totalLines: 3 });
  });
});
