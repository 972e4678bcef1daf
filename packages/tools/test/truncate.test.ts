import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/defaults.js";
import {
  truncateHead,
  truncateHeadLines,
  truncateLine,
  truncateTail,
  utf8ByteLength,
} from "../src/truncate.js";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("truncateHead", () => {
  it("returns text unchanged under both limits", () => {
    const r = truncateHead("a\nb\n");
    expect(r).toMatchObject({ content: "a\nb\n", truncated: false, truncatedBy: null, totalLines: 2 });
  });

  it("cuts by lines first when the line limit is hit", () => {
    const r = truncateHead(lines(10), { maxLines: 3 });
    expect(r.content).toBe("line 1\nline 2\nline 3");
    expect(r).toMatchObject({ truncatedBy: "lines", totalLines: 10, outputLines: 3 });
  });

  it("cuts by bytes on a line boundary, never mid-line", () => {
    const r = truncateHead("aaaa\nbbbb\ncccc", { maxBytes: 12 });
    expect(r.content).toBe("aaaa\nbbbb");
    expect(r).toMatchObject({ truncatedBy: "bytes", outputBytes: 9, totalBytes: 14 });
  });

  it("keeps nothing and says so when the first line exceeds the byte limit", () => {
    const r = truncateHead(`${"x".repeat(100)}\nshort`, { maxBytes: 10 });
    expect(r).toMatchObject({
      content: "",
      firstLineExceedsLimit: true,
      truncatedBy: "bytes",
      outputLines: 0,
    });
  });

  it("counts UTF-8 bytes, not characters", () => {
    const r = truncateHead("é\né\né", { maxBytes: 5 });
    expect(r.content).toBe("é\né");
    expect(r.outputBytes).toBe(5);
  });

  it("uses the DEFAULTS limits when none are given", () => {
    const r = truncateHead(lines(DEFAULTS.maxLines + 5));
    expect(r.outputLines).toBe(DEFAULTS.maxLines);
    expect(r.maxBytes).toBe(DEFAULTS.maxBytes);
  });
});

describe("truncateHeadLines", () => {
  it("counts a last empty line, which joined text would lose", () => {
    expect(truncateHead("a\n").outputLines).toBe(1);
    expect(truncateHeadLines(["a", ""]).outputLines).toBe(2);
    expect(truncateHeadLines([""])).toMatchObject({ outputLines: 1, truncated: false });
    expect(truncateHeadLines(["a", "", "b"], { maxLines: 2 })).toMatchObject({
      outputLines: 2,
      truncatedBy: "lines",
      totalLines: 3,
    });
  });
});

describe("truncateTail", () => {
  it("keeps the last lines", () => {
    const r = truncateTail(lines(10), { maxLines: 2 });
    expect(r.content).toBe("line 9\nline 10");
    expect(r).toMatchObject({ truncatedBy: "lines", outputLines: 2, totalLines: 10 });
  });

  it("keeps the end of an oversized last line, on a character boundary", () => {
    const r = truncateTail(`first\n${"😀".repeat(10)}`, { maxBytes: 10 });
    expect(r.lastLinePartial).toBe(true);
    expect(r.content).toBe("😀😀");
    expect(r.outputBytes).toBe(8);
  });

  it("stops at a whole line when the byte limit is hit", () => {
    const r = truncateTail("aaaa\nbbbb\ncccc", { maxBytes: 10 });
    expect(r.content).toBe("bbbb\ncccc");
    expect(r.lastLinePartial).toBe(false);
  });
});

describe("truncateLine", () => {
  it("leaves a short line alone", () => {
    expect(truncateLine("abc", 5)).toEqual({ text: "abc", truncated: false, totalChars: 3 });
  });

  it("never splits a surrogate pair", () => {
    const r = truncateLine("ab😀cd", 3);
    expect(r.text).toBe("ab");
    expect(r.truncated).toBe(true);
  });
});

describe("utf8ByteLength", () => {
  it("matches Buffer.byteLength, lone surrogates included", () => {
    for (const s of ["abc", "é", "😀", "\ud800x", "x\udc00", "中文"]) {
      expect(utf8ByteLength(s)).toBe(Buffer.byteLength(s, "utf8"));
    }
  });
});
