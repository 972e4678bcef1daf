import type { SyntaxProblem } from "./syntax-problem.js";

/**
 * Python's indentation rules, which tree-sitter's Python grammar recovers from without an error
 * node (`def f():` followed by an unindented body parses): the first of "expected an indented
 * block", "unexpected indent" and "unindent does not match any outer indentation level", as
 * CPython's tokenizer reports them. Lines inside brackets, strings and after a backslash
 * continuation do not count, nor blank and comment-only lines. Tabs advance to the next multiple
 * of 8, as in CPython.
 */
export function pythonIndentationProblem(text: string): SyntaxProblem | undefined {
  const stack = [0];
  let depth = 0;
  let quote: string | undefined;
  let expectIndent = false;
  let continued = false;
  let lastSignificant = "";
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? "").replace(/\r$/, "");
    const lineNumber = index + 1;
    let i = 0;
    if (quote === undefined && depth === 0 && !continued) {
      let width = 0;
      for (; i < line.length && (line[i] === " " || line[i] === "\t" || line[i] === "\f"); i++) {
        width = line[i] === "\t" ? (Math.floor(width / 8) + 1) * 8 : line[i] === " " ? width + 1 : 0;
      }
      if (i < line.length && line[i] !== "#") {
        const top = stack[stack.length - 1] ?? 0;
        if (expectIndent) {
          if (width <= top) return { line: lineNumber, column: i + 1, message: "expected an indented block" };
          stack.push(width);
        } else if (width > top) {
          return { line: lineNumber, column: i + 1, message: "unexpected indent" };
        } else if (width < top) {
          while ((stack[stack.length - 1] ?? 0) > width) stack.pop();
          if (stack[stack.length - 1] !== width) {
            return {
              line: lineNumber,
              column: i + 1,
              message: "unindent does not match any outer indentation level",
            };
          }
        }
        expectIndent = false;
      }
    }
    continued = false;
    for (; i < line.length; i++) {
      const char = line[i] as string;
      if (quote !== undefined) {
        if (char === "\\") i++;
        else if (line.startsWith(quote, i)) {
          i += quote.length - 1;
          quote = undefined;
        }
        continue;
      }
      if (char === "#") break;
      if (char === "'" || char === '"') {
        quote = line.startsWith(char.repeat(3), i) ? char.repeat(3) : char;
        i += quote.length - 1;
      } else if (char === "(" || char === "[" || char === "{") depth++;
      else if (char === ")" || char === "]" || char === "}") depth = Math.max(0, depth - 1);
      else if (char === "\\" && i === line.length - 1) continued = true;
      if (char !== " " && char !== "\t" && char !== "\\") lastSignificant = char;
    }
    // A one-quote string ends with its line (unterminated: the tree reports it).
    if (quote !== undefined && quote.length === 1) quote = undefined;
    if (quote === undefined && depth === 0 && !continued && lastSignificant !== "") {
      expectIndent = lastSignificant === ":";
      lastSignificant = "";
    }
  }
  if (expectIndent) return { line: lines.length, column: 1, message: "expected an indented block" };
  return undefined;
}
