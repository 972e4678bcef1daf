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
  // Scanned in place (indices into `text`, char codes), without splitting it into lines: the
  // check runs on every change of a Python file, and allocating a string per line would make
  // it the part of the check that most often pays for a garbage collection.
  const stack = [0];
  let depth = 0;
  /** The open string's quote character (0: none) and its length (1 or 3). */
  let quote = 0;
  let quoteLength = 1;
  let expectIndent = false;
  let continued = false;
  /** The last character outside strings and comments on the logical line (-1: none yet). */
  let lastSignificant = -1;
  let lineNumber = 0;
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf("\n", start);
    const lineEnd = newline === -1 ? text.length : newline;
    // A CRLF line ends before its CR.
    const end = lineEnd > start && text.charCodeAt(lineEnd - 1) === CR ? lineEnd - 1 : lineEnd;
    lineNumber++;
    let i = start;
    if (quote === 0 && depth === 0 && !continued) {
      let width = 0;
      for (; i < end; i++) {
        const code = text.charCodeAt(i);
        if (code === SPACE) width++;
        else if (code === TAB) width = (Math.floor(width / 8) + 1) * 8;
        else if (code === FORM_FEED) width = 0;
        else break;
      }
      if (i < end && text.charCodeAt(i) !== HASH) {
        const column = i - start + 1;
        const top = stack[stack.length - 1] ?? 0;
        if (expectIndent) {
          if (width <= top) return { line: lineNumber, column, message: "expected an indented block" };
          stack.push(width);
        } else if (width > top) {
          return { line: lineNumber, column, message: "unexpected indent" };
        } else if (width < top) {
          while ((stack[stack.length - 1] ?? 0) > width) stack.pop();
          if (stack[stack.length - 1] !== width) {
            return {
              line: lineNumber,
              column,
              message: "unindent does not match any outer indentation level",
            };
          }
        }
        expectIndent = false;
      }
    }
    continued = false;
    for (; i < end; i++) {
      const code = text.charCodeAt(i);
      if (quote !== 0) {
        if (code === BACKSLASH) i++;
        else if (quoteAt(text, i, end, quote, quoteLength)) {
          i += quoteLength - 1;
          quote = 0;
        }
        continue;
      }
      if (code === HASH) break;
      if (code === SINGLE_QUOTE || code === DOUBLE_QUOTE) {
        quote = code;
        quoteLength = quoteAt(text, i, end, code, 3) ? 3 : 1;
        i += quoteLength - 1;
      } else if (code === 0x28 || code === 0x5b || code === 0x7b) depth++;
      else if (code === 0x29 || code === 0x5d || code === 0x7d) depth = Math.max(0, depth - 1);
      else if (code === BACKSLASH && i === end - 1) continued = true;
      if (code !== SPACE && code !== TAB && code !== BACKSLASH) lastSignificant = code;
    }
    // A one-quote string ends with its line (unterminated: the tree reports it).
    if (quote !== 0 && quoteLength === 1) quote = 0;
    if (quote === 0 && depth === 0 && !continued && lastSignificant !== -1) {
      expectIndent = lastSignificant === COLON;
      lastSignificant = -1;
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  if (expectIndent) return { line: lineNumber, column: 1, message: "expected an indented block" };
  return undefined;
}

const TAB = 0x09;
const FORM_FEED = 0x0c;
const CR = 0x0d;
const SPACE = 0x20;
const DOUBLE_QUOTE = 0x22;
const HASH = 0x23;
const SINGLE_QUOTE = 0x27;
const COLON = 0x3a;
const BACKSLASH = 0x5c;

/** Whether `count` copies of the character `quote` start at `at`, within the line ending at `end`. */
function quoteAt(text: string, at: number, end: number, quote: number, count: number): boolean {
  if (at + count > end) return false;
  for (let k = 0; k < count; k++) if (text.charCodeAt(at + k) !== quote) return false;
  return true;
}
