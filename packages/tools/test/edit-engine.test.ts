import { isToolError } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { buildEditDiff } from "../src/edit/diff.js";
import { createEditDocument, toOriginalOffset } from "../src/edit/document.js";
import { stripLineNumberPrefixes } from "../src/edit/normalize.js";
import { type EditRequest, hasSharedContext, planEdits } from "../src/edit/plan.js";

const plan = (text: string, edits: EditRequest[]) => planEdits(text, edits, { path: "f.txt" });

function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isToolError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("edit engine: matching", () => {
  it("replaces a unique exact match and names the exact matcher", () => {
    const result = plan("a\nb\nc\n", [{ oldText: "b", newText: "B" }]);
    expect(result.text).toBe("a\nB\nc\n");
    expect(result.outcomes[0]).toMatchObject({ status: "applied", matcher: "exact", lines: [2] });
  });

  it("lets an exact unique match win even when fuzzy matching would find more", () => {
    const text = 'say(\u201Chi\u201D)\nsay("hi")\n';
    const result = plan(text, [{ oldText: 'say("hi")', newText: 'say("bye")' }]);
    expect(result.outcomes[0]?.matcher).toBe("exact");
    expect(result.text).toBe('say(\u201Chi\u201D)\nsay("bye")\n');
  });

  it("counts ambiguous exact matches and suggests context or replaceAll", () => {
    const error = errorOf(() => plan("x\nx\ny\nx\n", [{ oldText: "x", newText: "z" }]));
    expect(error.code).toBe("ambiguous_match");
    expect(error.message).toContain("matches 3 places");
    expect(error.message).toContain("at 1:1, 2:1, 4:1 (line:column)");
    expect(error.message).toContain("replaceAll: true");
  });

  it("gives columns for several matches on one line", () => {
    const error = errorOf(() => plan("ab ab ab\nx\n", [{ oldText: "ab", newText: "z" }]));
    expect(error.code).toBe("ambiguous_match");
    expect(error.message).toContain("at 1:1, 1:4, 1:7 (line:column)");
    // Columns count characters, not UTF-16 units: an emoji before a match is one column.
    const wide = errorOf(() => plan("\u{1F600}ab ab\n", [{ oldText: "ab", newText: "z" }]));
    expect(wide.message).toContain("at 1:2, 1:5");
  });

  it("reports a CRLF copy and an LF copy of the same text as ambiguous", () => {
    for (const oldText of ["alpha\nbeta", "alpha\r\nbeta"]) {
      const error = errorOf(() => plan("alpha\r\nbeta\r\ngap\nalpha\nbeta\n", [{ oldText, newText: "x" }]));
      expect(error.code).toBe("ambiguous_match");
      expect(error.message).toContain("at 1:1, 4:1");
    }
  });

  it("replaces every occurrence with replaceAll", () => {
    const result = plan("x\nx\ny\nx\n", [{ oldText: "x", newText: "z", replaceAll: true }]);
    expect(result.text).toBe("z\nz\ny\nz\n");
    expect(result.outcomes[0]?.occurrences).toBe(3);
  });

  it("matches all edits against the original, not against each other's output", () => {
    const result = plan("one two\n", [
      { oldText: "one", newText: "two" },
      { oldText: "two", newText: "three" },
    ]);
    expect(result.text).toBe("two three\n");
  });

  it("rejects overlapping edits and changes nothing", () => {
    const error = errorOf(() =>
      plan("abc def ghi\n", [
        { oldText: "abc def", newText: "1" },
        { oldText: "def ghi", newText: "2" },
      ]),
    );
    expect(error.code).toBe("overlapping_edits");
    expect(error.message).toContain("edits[0] and edits[1] overlap");
  });

  it("rejects an edit whose oldText lies inside another edit's match", () => {
    const error = errorOf(() =>
      plan("call foo(bar);\n", [
        { oldText: "foo(bar)", newText: "foo(baz)" },
        { oldText: "bar", newText: "qux" },
      ]),
    );
    expect(error.code).toBe("overlapping_edits");
    expect(error.message).toContain("edits[0] and edits[1] overlap");
  });

  it("counts a whole-line oldText that also occurs inside a longer line as ambiguous, among other edits", () => {
    const error = errorOf(() =>
      plan("run();\nfirst\nif (x) run();\n", [
        { oldText: "first", newText: "1st" },
        { oldText: "run();", newText: "stop();" },
      ]),
    );
    expect(error.code).toBe("ambiguous_match");
    expect(error.message).toContain("edits[1]");
    expect(error.message).toContain("at 1:1, 3:8 (line:column)");
  });

  it("is all or nothing: one missing oldText fails the whole call", () => {
    const error = errorOf(() =>
      plan("a\nb\n", [
        { oldText: "a", newText: "A" },
        { oldText: "zzz", newText: "Z" },
      ]),
    );
    expect(error.code).toBe("no_match");
    expect(error.message).toContain("edits[1]");
  });

  it("refuses an empty oldText and identical old and new text", () => {
    expect(errorOf(() => plan("a", [{ oldText: "", newText: "b" }])).code).toBe("invalid_arguments");
    expect(errorOf(() => plan("a", [{ oldText: "a", newText: "a" }])).code).toBe("invalid_arguments");
  });
});

describe("edit engine: fuzzy pass", () => {
  it("forgives smart quotes, rewrites only the matched text and keeps the file's quotes", () => {
    const text = "const a = \u201Cx\u201D;\nconst b = \u2018y\u2019;\n";
    const result = plan(text, [{ oldText: 'const a = "x";', newText: 'const a = "z";' }]);
    expect(result.outcomes[0]?.matcher).toBe("fuzzy:quotes");
    expect(result.text).toBe("const a = \u201Cz\u201D;\nconst b = \u2018y\u2019;\n");
  });

  it("forgives dashes, special spaces and NFKC compatibility characters, naming each kind", () => {
    const text = "x \u2014 y\u00A0z \uFB01le\nkeep \u2014 this\n";
    const result = plan(text, [{ oldText: "x - y z file", newText: "done" }]);
    expect(result.outcomes[0]?.matcher).toBe("fuzzy:dashes+spaces+nfkc");
    expect(result.text).toBe("done\nkeep \u2014 this\n");
  });

  it("forgives trailing whitespace on matched lines, keeping the file's on lines it does not change", () => {
    const text = "function f() {   \n  return 1;\t\n}\n";
    const result = plan(text, [
      { oldText: "function f() {\n  return 1;\n}", newText: "function f() {\n  return 2;\n}" },
    ]);
    expect(result.outcomes[0]?.matcher).toBe("fuzzy:trailing-whitespace");
    expect(result.text).toBe("function f() {   \n  return 2;\t\n}\n");
  });

  it("strips line-number prefixes copied from read output, in oldText and newText", () => {
    const text = "alpha\nbeta\ngamma\n";
    const result = plan(text, [{ oldText: "2\tbeta\n3\tgamma", newText: "2\tBETA\n3\tgamma" }]);
    expect(result.outcomes[0]?.matcher).toBe("fuzzy:line-numbers");
    expect(result.text).toBe("alpha\nBETA\ngamma\n");
    expect(stripLineNumberPrefixes(["12: a", "13: b"])).toEqual(["a", "b"]);
    expect(stripLineNumberPrefixes(["12: a", "15: b"])).toBeUndefined();
  });

  it("forgives full-width and ideographic punctuation against ASCII, both ways", () => {
    const text = 'print\uFF08"\u4F60\u597D"\uFF09\uFF0C\u4E16\u754C\u3002\nnext\u3001line\n';
    const wide = plan(text, [{ oldText: 'print("\u4F60\u597D"),\u4E16\u754C.', newText: "done" }]);
    expect(wide.outcomes[0]?.matcher).toBe("fuzzy:punctuation+nfkc");
    expect(wide.text).toBe("done\nnext\u3001line\n");
    const ascii = plan("stop. go, now\n", [{ oldText: "stop\u3002 go\u3001 now", newText: "x" }]);
    expect(ascii.outcomes[0]?.matcher).toBe("fuzzy:punctuation");
  });

  it("matches combining accents against precomposed letters, both ways, and keeps whole characters", () => {
    const nfd = "cafe\u0301 = 1;\nnai\u0308ve = 2;\n";
    const result = plan(nfd, [{ oldText: "caf\u00e9 = 1;\nna\u00efve = 2;", newText: "x" }]);
    expect(result.outcomes[0]?.matcher).toBe("fuzzy:nfkc");
    expect(result.text).toBe("x\n");
    const nfc = plan("caf\u00e9 = 1;\n", [{ oldText: "cafe\u0301 = 1;", newText: "y" }]);
    expect(nfc.text).toBe("y\n");
    // Several marks on one letter compare in canonical order (dot below before circumflex).
    const viet = plan("Vi\u1EC7t Nam\n", [{ oldText: "Vie\u0302\u0323t Nam", newText: "VN" }]);
    expect(viet).toMatchObject({ text: "VN\n", outcomes: [{ matcher: "fuzzy:nfkc" }] });
    const marks = plan("Vie\u0323\u0302t = 1;\n", [{ oldText: "Vi\u1EC7t = 1;", newText: "x" }]);
    expect(marks.text).toBe("x\n");
  });

  it("counts ambiguous fuzzy matches", () => {
    const error = errorOf(() => plan("a \u2013 b\nc\na \u2014 b\n", [{ oldText: "a - b", newText: "x" }]));
    expect(error.code).toBe("ambiguous_match");
    expect(error.message).toContain("matches 2 places");
  });

  it("leaves bytes outside the matched text untouched, even on the touched line", () => {
    const text = "\u201Ckeep\u201D and \u201Cchange\u201D\n";
    const result = plan(text, [{ oldText: '"change"', newText: '"changed"' }]);
    expect(result.text).toBe("\u201Ckeep\u201D and \u201Cchanged\u201D\n");
  });
});

describe("edit engine: already applied and not found", () => {
  it("does not call an edit applied because newText occurs somewhere (foo(1) -> bar(1))", () => {
    const error = errorOf(() => plan("bar(1);\nfoo(2);\n", [{ oldText: "foo(1)", newText: "bar(1)" }]));
    expect(error.code).toBe("no_match");
    expect(error.message).toContain(
      "Its newText already occurs at line 1, but nothing shows this edit put it there",
    );
    const same = errorOf(() =>
      plan("const v = 2;\n", [{ oldText: "const v = 1;", newText: "const v = 2;" }]),
    );
    expect(same.code).toBe("no_match");
  });

  it("recognises an edit this session applied before", () => {
    const result = planEdits("const v = 2;\n", [{ oldText: "const v = 1;", newText: "const v = 2;" }], {
      path: "f.txt",
      appliedBefore: (edit) => edit.oldText === "const v = 1;" && edit.newText === "const v = 2;",
    });
    expect(result.changed).toBe(false);
    expect(result.outcomes[0]).toMatchObject({
      status: "already_applied",
      evidence: "this-session",
      lines: [1],
    });
  });

  it("recognises an applied edit by the unchanged lines it shares with oldText", () => {
    const text = "function f() {\n  return 2;\n}\nfunction g() {}\n";
    const result = plan(text, [
      { oldText: "function f() {\n  return 1;\n}", newText: "function f() {\n  return 2;\n}" },
    ]);
    expect(result.outcomes[0]).toMatchObject({ status: "already_applied", evidence: "context", lines: [1] });
    // Shared context only counts when newText sits in one place.
    const twice = `${text}${text}`;
    expect(
      errorOf(() =>
        plan(twice, [
          { oldText: "function f() {\n  return 1;\n}", newText: "function f() {\n  return 2;\n}" },
        ]),
      ).code,
    ).toBe("no_match");
  });

  it("finds shared context only in whole unchanged lines with some substance", () => {
    expect(hasSharedContext("foo(1)", "bar(1)")).toBe(false);
    expect(hasSharedContext("const v = 1;", "const v = 2;")).toBe(false);
    expect(hasSharedContext("}\nx = 1", "}\nx = 2")).toBe(false);
    expect(hasSharedContext("if (ready) {\n  go(1);", "if (ready) {\n  go(2);")).toBe(true);
    expect(hasSharedContext("  go(1);\n  done();", "  go(2);\n  done();")).toBe(true);
  });

  it("applies the other edits and notes the one that is already applied", () => {
    const result = plan("a = 1\nsection b\nb = 2\n", [
      { oldText: "a = 1", newText: "a = 10" },
      { oldText: "section b\nb = 1", newText: "section b\nb = 2" },
    ]);
    expect(result.text).toBe("a = 10\nsection b\nb = 2\n");
    expect(result.outcomes.map((outcome) => outcome.status)).toEqual(["applied", "already_applied"]);
    expect(result.applied).toEqual([{ oldText: "a = 1", newText: "a = 10" }]);
  });

  it("recognises a re-sent edit whose newText contains oldText instead of applying it twice", () => {
    const result = plan("call(a, b);\n", [{ oldText: "call(a", newText: "call(a, b" }]);
    expect(result.changed).toBe(false);
    expect(result.outcomes[0]?.status).toBe("already_applied");
    expect(plan("call(a);\n", [{ oldText: "call(a", newText: "call(a, b" }]).text).toBe("call(a, b);\n");
  });

  it("does not call an edit applied when newText is common (found more than once)", () => {
    expect(errorOf(() => plan("}\n}\n", [{ oldText: "zzz", newText: "}" }])).code).toBe("no_match");
  });

  it("does not call an edit applied when newText is blank", () => {
    expect(errorOf(() => plan("a\n", [{ oldText: "zzz", newText: "" }])).code).toBe("no_match");
  });

  it("shows the closest region with line numbers and the first differing line", () => {
    const text = ["a", "function total(items) {", "  let sum = 0;", "  return sum;", "}", "z"].join("\n");
    const error = errorOf(() =>
      plan(text, [{ oldText: "function total(items) {\n  let sum = 1;\n  return sum;", newText: "x" }]),
    );
    expect(error.code).toBe("no_match");
    expect(error.message).toContain("Closest region, lines 2-4");
    expect(error.message).toContain("     3\t  let sum = 0;");
    expect(error.message).toContain("First difference at line 3");
    expect(error.message).toContain('oldText: "  let sum = 1;"');
  });
});

describe("edit engine: closest region in a file full of one line", () => {
  it("anchors on oldText's rarest line, not on a line repeated thousands of times", () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `  step(${i});\n    return null;`).join("\n");
    const text = `${filler}\n  const rare = compute(2);\n    return null;\n  done();\n`;
    const error = errorOf(() =>
      plan(text, [{ oldText: "  const rare = compute(1);\n    return null;\n  done();", newText: "x" }]),
    );
    expect(error.code).toBe("no_match");
    expect(error.message).toContain("Closest region, lines 6001-6003");
    expect(error.message).toContain("First difference at line 6001");
  });
});

describe("edit engine: not found at the edges", () => {
  it("says where to look when the closest region matches line by line", () => {
    const error = errorOf(() => plan("a\nlast line", [{ oldText: "last line\n", newText: "x\n" }]));
    expect(error.code).toBe("no_match");
    expect(error.message).toContain("Closest region, line 2");
    expect(error.message).toContain("a final newline the file lacks");
  });
});

describe("edit engine: line endings", () => {
  it("keeps CRLF endings, including in replaced lines", () => {
    const result = plan("a\r\nb\r\nc\r\n", [{ oldText: "b\nc", newText: "B\nX\nC" }]);
    expect(result.text).toBe("a\r\nB\r\nX\r\nC\r\n");
  });

  it("keeps mixed line endings line by line", () => {
    const text = "a\r\nb\nc\r\nd\n";
    const result = plan(text, [
      { oldText: "a", newText: "A" },
      { oldText: "c", newText: "C1\nC2" },
    ]);
    expect(result.text).toBe("A\r\nb\nC1\r\nC2\r\nd\n");
  });

  it("matches an oldText sent with CRLF against an LF file, and fuzzily inside a CRLF file", () => {
    expect(plan("a\nb\n", [{ oldText: "a\r\nb", newText: "x\r\ny" }]).text).toBe("x\ny\n");
    const result = plan("say(\u201Chi\u201D)\r\nnext\r\n", [
      { oldText: 'say("hi")\nnext', newText: "done\nnext" },
    ]);
    expect(result.outcomes[0]?.matcher).toBe("fuzzy:quotes");
    expect(result.text).toBe("done\r\nnext\r\n");
  });

  it("maps LF offsets back to the original CRLF text", () => {
    const doc = createEditDocument("ab\r\ncd\r\n");
    expect(doc.lf).toBe("ab\ncd\n");
    expect(toOriginalOffset(doc, 3)).toBe(4);
  });
});

describe("edit engine: diff", () => {
  it("produces a unified diff with the right line numbers for far-apart edits", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    const result = plan(lines.join("\n"), [
      { oldText: "line 10\n", newText: "line ten\n" },
      { oldText: "line 90\n", newText: "line ninety\nextra\n" },
    ]);
    const diff = buildEditDiff("f.txt", result.document.lf, result.replacements);
    expect(diff.patch).toContain("--- a/f.txt");
    expect(diff.patch).toContain("@@ -7,7 +7,7 @@");
    expect(diff.patch).toContain("@@ -87,7 +87,8 @@");
    expect(diff.patch).toContain("+line ninety");
    expect(diff).toMatchObject({ added: 3, removed: 2, firstChangedLine: 10 });
  });
});
