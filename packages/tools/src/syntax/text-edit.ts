import type { SyntaxEdit, SyntaxPoint } from "@tackle/tree-sitter";

/**
 * The one edit that turns `before` into `after`: the span between their common prefix and
 * common suffix. Enough for an incremental parse, which only needs to know what changed.
 */
export function textEdit(before: string, after: string): SyntaxEdit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let suffix = 0;
  while (
    suffix < shorter - start &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  ) {
    suffix++;
  }
  const oldEnd = before.length - suffix;
  const newEnd = after.length - suffix;
  const startPosition = pointAt(before, start);
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition,
    oldEndPosition: pointAfter(before, start, oldEnd, startPosition),
    newEndPosition: pointAfter(after, start, newEnd, startPosition),
  };
}

/** Row and column (UTF-16 code units) of `offset`. */
function pointAt(text: string, offset: number): SyntaxPoint {
  return pointAfter(text, 0, offset, { row: 0, column: 0 });
}

/** The point at `end`, counting from `from` whose point is `at`. */
function pointAfter(text: string, from: number, end: number, at: SyntaxPoint): SyntaxPoint {
  let row = at.row;
  let lineStart = from - at.column;
  for (let i = text.indexOf("\n", from); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: end - lineStart };
}
