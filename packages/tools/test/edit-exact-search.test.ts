import { describe, expect, it } from "vitest";
import {
  findExact,
  findExactAll,
  ONE_PASS_MIN_NEEDLES,
  overlappingStarts,
} from "../src/edit/exact-search.js";

/** The one-pass search from two needles on (by default it starts at ONE_PASS_MIN_NEEDLES). */
const onePass = (haystack: string, needles: string[]) => findExactAll(haystack, needles, 2);

/** findExactAll must give, needle by needle, exactly what one indexOf scan per needle gives. */
function expectSameAsOneScanEach(haystack: string, needles: string[]) {
  expect(onePass(haystack, needles)).toEqual(needles.map((needle) => findExact(haystack, needle)));
}

describe("findExactAll: every edit's exact places in one pass", () => {
  it("finds each needle's places, non-overlapping, in the order of the needles", () => {
    const haystack = "alpha beta\ngamma alpha\nbeta\n";
    expect(onePass(haystack, ["beta", "alpha", "delta"])).toEqual([[6, 23], [0, 17], []]);
  });

  it("finds a needle that starts inside another needle's match", () => {
    // The scan resumes one character after a candidate, never after the whole match.
    expect(onePass("call foo(bar)\n", ["foo(bar)", "bar"])).toEqual([[5], [9]]);
    expectSameAsOneScanEach("xabcabcabcx", ["abcabc", "cab", "bca"]);
  });

  it("finds needles that start at the same place, one a prefix of the other", () => {
    expect(onePass("abcdef abc", ["abc", "abcdef"])).toEqual([[0, 7], [0]]);
    expect(onePass("abcdef abc", ["abcdef", "abc"])).toEqual([[0], [0, 7]]);
  });

  it("keeps a needle's own occurrences non-overlapping, like indexOf after each match", () => {
    expect(onePass("aaaaa", ["aa", "aaa"])).toEqual([[0, 2], [0]]);
  });

  it("checks whole needles longer than the pattern's prefix (same first 64 characters)", () => {
    const head = "x".repeat(70);
    const haystack = `${head}A\n${head}B\n${head}A\n`;
    expect(onePass(haystack, [`${head}A`, `${head}B`, `${head}C`])).toEqual([[0, 144], [72], []]);
  });

  it("treats regular expression syntax, line breaks and surrogates as plain text", () => {
    const haystack = "a.b*c\n(x|y)[z]{2}\\d$^+?/\n\u{1F600}\u2028end\n";
    expectSameAsOneScanEach(haystack, [
      "a.b*c",
      "(x|y)",
      "[z]{2}\\d$^+?/",
      "\n\u{1F600}",
      "\uDE00\u2028",
      "a.b",
      "ab",
    ]);
  });

  it("answers duplicated and empty needles like separate scans", () => {
    expect(onePass("one two one", ["one", "", "one", "two"])).toEqual([[0, 8], [], [0, 8], [4]]);
  });

  it("matches one scan per needle on random texts over a small alphabet", () => {
    let seed = 12345;
    const random = (below: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % below;
    };
    const word = (length: number) => Array.from({ length }, () => "ab\n"[random(3)]).join("");
    for (let round = 0; round < 300; round++) {
      const haystack = word(40 + random(200));
      const needles = Array.from({ length: 2 + random(6) }, () => word(1 + random(6)));
      expectSameAsOneScanEach(haystack, needles);
    }
  });

  it("searches enough needles in one pass by default, with the same answer", () => {
    const haystack = Array.from({ length: 200 }, (_, i) => `line ${i % 50} of ${i}`).join("\n");
    const needles = Array.from({ length: ONE_PASS_MIN_NEEDLES + 2 }, (_, i) => `line ${i} of`);
    expect(findExactAll(haystack, needles)).toEqual(needles.map((needle) => findExact(haystack, needle)));
  });

  it("gives up the pass when a repeated text would make it cost more than one scan per needle", () => {
    // A candidate at every character, each compared over thousands of characters: without the
    // limit this pass does about 10^9 comparisons here (10^13 at 2 MB), one scan per needle 10^5.
    const haystack = "a".repeat(100_000);
    const needles = Array.from({ length: 10 }, (_, i) => "a".repeat(1000 + i));
    expect(overlappingStarts(haystack, needles)).toBeUndefined();
    // The answer is still every needle's places, from one scan each.
    expect(findExactAll(haystack, needles, 2)).toEqual(needles.map((needle) => findExact(haystack, needle)));
    // An ordinary text stays well inside the limit.
    const code = Array.from({ length: 2000 }, (_, i) => `const value${i} = compute(${i});\n`).join("");
    const lines = Array.from({ length: 20 }, (_, i) => `const value${i * 7} = compute(${i * 7});`);
    expect(overlappingStarts(code, lines)).toBeDefined();
  });
});
