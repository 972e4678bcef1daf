/**
 * Normalisation finds the place and never writes: a fuzzy match keeps the file's bytes on lines
 * newText does not change, writes the file's spelling of characters oldText had normalised, and
 * refuses when that spelling is ambiguous.
 */
import { isToolError } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { type EditRequest, planEdits } from "../src/edit/plan.js";

const plan = (text: string, edits: EditRequest[]) => planEdits(text, edits, { path: "f.txt" });

function refusal(fn: () => unknown): { code: string; message: string; details: unknown } {
  try {
    fn();
  } catch (error) {
    if (isToolError(error)) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error("expected a ToolError");
}

describe("fuzzy matches keep the file's spelling", () => {
  it("writes straight quotes into a Python f-string when the model sent curly ones", () => {
    const text = 'name = "x"\nprint(f"hello {name}")\n';
    const result = plan(text, [
      { oldText: "print(f\u201Chello {name}\u201D)", newText: "print(f\u201Chi {name}\u201D)" },
    ]);
    expect(result.outcomes[0]?.matcher).toBe("fuzzy:quotes");
    expect(result.text).toBe('name = "x"\nprint(f"hi {name}")\n');
  });

  it("writes curly quotes where the file has them and the model sent straight ones (opening and closing apart)", () => {
    const text = "label = \u201Cprod\u201D; note = \u2018it\u2019s\u2019\n";
    const result = plan(text, [
      { oldText: "label = \"prod\"; note = 'it's'", newText: "label = \"staging\"; note = 'it's new'" },
    ]);
    expect(result.text).toBe("label = \u201Cstaging\u201D; note = \u2018it\u2019s new\u2019\n");
  });

  it("keeps NBSP indentation on lines it does not change, and on the changed line around the change", () => {
    const text = "\u00A0\u00A0a()\n\u00A0\u00A0b()\nrest\n";
    const result = plan(text, [{ oldText: "  a()\n  b()", newText: "  a()\n  c(x, y)" }]);
    expect(result.outcomes[0]?.matcher).toBe("fuzzy:spaces");
    expect(result.text).toBe("\u00A0\u00A0a()\n\u00A0\u00A0c(x, y)\nrest\n");
  });

  it("keeps zero-width joiners of an emoji on an untouched line", () => {
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}";
    const text = `a = 1\nlabel = "${family}"\n`;
    const result = plan(text, [
      {
        oldText: 'a = 1\nlabel = "\u{1F468}\u{1F469}\u{1F467}"',
        newText: 'a = 2\nlabel = "\u{1F468}\u{1F469}\u{1F467}"',
      },
    ]);
    expect(result.text).toBe(`a = 2\nlabel = "${family}"\n`);
  });

  it("keeps an NFD file name in a link when the model sent NFC", () => {
    const text = "[doc](Cafe\u0301.md)\nsee above\n";
    const result = plan(text, [
      { oldText: "[doc](Caf\u00E9.md)\nsee above", newText: "[doc](Caf\u00E9.md)\nsee below" },
    ]);
    expect(result.text).toBe("[doc](Cafe\u0301.md)\nsee below\n");
  });

  it("respells the model's curly quotes on an added line when the file has straight ones", () => {
    const text = 'x = "a"\n';
    const result = plan(text, [
      { oldText: "x = \u201Ca\u201D", newText: "x = \u201Ca\u201D\ny = \u201Cb\u201D" },
    ]);
    expect(result.text).toBe('x = "a"\ny = "b"\n');
  });

  it("leaves an ASCII hyphen on a new line alone though oldText's hyphen stood for an en dash", () => {
    const text = "// pages 1\u20135\n";
    const result = plan(text, [{ oldText: "// pages 1-5", newText: "// pages 1-5\nz = a - b" }]);
    expect(result.text).toBe("// pages 1\u20135\nz = a - b\n");
  });

  it("refuses when one character of oldText stood for two spellings and newText repeats it", () => {
    const text = 'a = "x" + \u201Cy\u201D\n';
    const error = refusal(() => plan(text, [{ oldText: 'a = "x" + "y"', newText: 'a = "x", "w" + "y"' }]));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain('"\\"" U+0022');
    expect(error.message).toContain("U+201C");
    expect(error.details).toMatchObject({ reason: "ambiguous_spelling", field: "newText" });
  });

  it("writes newText as sent for an exact match (the model copied the file's characters)", () => {
    const text = "say(\u201Chi\u201D)\n";
    const result = plan(text, [{ oldText: "say(\u201Chi\u201D)", newText: 'say("hi")' }]);
    expect(result.outcomes[0]?.matcher).toBe("exact");
    expect(result.text).toBe('say("hi")\n');
  });
});
