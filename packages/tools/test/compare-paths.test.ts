import { describe, expect, it } from "vitest";
import { compareCodePoints, comparePaths } from "../src/search/compare-paths.js";

/** The definition: segment by segment, each by code point, then fewer segments first. */
function bySegments(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = compareCodePoints(left[i]!, right[i]!);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

describe("comparePaths", () => {
  it("orders segment by segment: a/x before a-b/x, a before a/b, shorter segment first", () => {
    const sorted = ["a-b/x", "a/x", "a", "a/b", "a.b", "ab/c", "a/b/c", "a/bc"].sort(comparePaths);
    expect(sorted).toEqual(["a", "a/b", "a/b/c", "a/bc", "a/x", "a-b/x", "a.b", "ab/c"]);
  });

  it("puts astral characters after U+E000..U+FFFF, as UTF-8 byte order does", () => {
    expect(comparePaths("d/\u{1F600}", "d/\uFFFD")).toBeGreaterThan(0);
    expect(comparePaths("d/\uE000", "d/\u{10000}")).toBeLessThan(0);
  });

  it("agrees in sign with the segment-by-segment definition on many generated paths", () => {
    const alphabet = ["a", "b", "/", "-", ".", " ", "\uE000", "\u{1F600}", "\u{10000}", "Z", "!"];
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const paths: string[] = [];
    for (let i = 0; i < 400; i++) {
      let path = "";
      const length = next() % 7;
      for (let j = 0; j < length; j++) path += alphabet[next() % alphabet.length];
      paths.push(path);
    }
    for (const a of paths) {
      for (const b of paths.slice(0, 60)) {
        expect([a, b, Math.sign(comparePaths(a, b))]).toEqual([a, b, Math.sign(bySegments(a, b))]);
      }
    }
  });
});
