/**
 * Cases the edit property test found, kept as plain examples: each was a third file before.
 */
import { isToolError } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { type EditRequest, planEdits } from "../src/edit/plan.js";

const plan = (text: string, edits: EditRequest[]) => planEdits(text, edits, { path: "f.py" });

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isToolError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("edit engine: property test findings", () => {
  it("counts two overlapping places as two (exact and fuzzy): ambiguous, not the first", () => {
    expect(
      codeOf(() => plan("a = 1;\na = 1;\na = 1;\n", [{ oldText: "a = 1;\na = 1;", newText: "b" }])),
    ).toBe("ambiguous_match");
    const curly = "s(\u201Cx\u201D)\ns(\u201Cx\u201D)\ns(\u201Cx\u201D)\n";
    expect(codeOf(() => plan(curly, [{ oldText: 's("x")\ns("x")', newText: "b" }]))).toBe("ambiguous_match");
  });

  it("does not end a fuzzy match inside a character's decomposition (Cafe is not Caf\u00E9)", () => {
    expect(codeOf(() => plan('name = "Cafe\u0301 x"\n', [{ oldText: "Cafe", newText: "Tea" }]))).toBe(
      "no_match",
    );
  });

  it("keeps a line's trailing whitespace on that line when newText adds lines after it", () => {
    const result = plan("a = 1;\n  b = 2;  \nc\n", [
      { oldText: "a = 1;\n  b = 2;", newText: "a = 1;\n  b = 2;\n  d();" },
    ]);
    expect(result.text).toBe("a = 1;\n  b = 2;  \n  d();\nc\n");
  });

  it("does not call a deletion applied because the lines it keeps are there", () => {
    const text = "x = 0;\na = 1;\na = 1;\n";
    expect(codeOf(() => plan(text, [{ oldText: "a = 1;\na = 1;\nz = 9;", newText: "a = 1;\na = 1;" }]))).toBe(
      "no_match",
    );
  });
});
