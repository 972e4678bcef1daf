import { describe, expect, it } from "vitest";
import { pythonIndentationProblem } from "../src/syntax/python-indentation.js";

/** The indentation scan the Python check adds to the grammar's error nodes (CPython's three errors). */
describe("Python's indentation scan", () => {
  it("accepts an indented body, brackets and continuations across lines, and strings over lines", () => {
    for (const text of [
      "def f():\n    return 1\n",
      "x = (1,\n  2)\ny = 1 + \\\n   2\n",
      's = """\n  text\n"""\nz = 1\n',
      "def f():\n# a comment at any indentation\n    pass\n",
      "if x:\n\ta\n        b\n",
    ]) {
      expect(pythonIndentationProblem(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it("reports a body that is not indented, where CPython does", () => {
    expect(pythonIndentationProblem("def f():\nreturn 1\n")).toEqual({
      line: 2,
      column: 1,
      message: "expected an indented block",
    });
    expect(pythonIndentationProblem("def f():\n")).toEqual({
      line: 2,
      column: 1,
      message: "expected an indented block",
    });
  });

  it("reports an unexpected indent and an unindent to no outer level", () => {
    expect(pythonIndentationProblem("x = 1\n    y = 2\n")).toEqual({
      line: 2,
      column: 5,
      message: "unexpected indent",
    });
    expect(pythonIndentationProblem("if x:\n    a\n  b\n")).toEqual({
      line: 3,
      column: 3,
      message: "unindent does not match any outer indentation level",
    });
  });

  it("reads CRLF files as LF files", () => {
    expect(pythonIndentationProblem("def f():\r\n    return 1\r\n")).toBeUndefined();
    expect(pythonIndentationProblem("def f():\r\nreturn 1\r\n")).toEqual({
      line: 2,
      column: 1,
      message: "expected an indented block",
    });
  });
});
