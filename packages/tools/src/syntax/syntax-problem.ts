/** One place a file stopped parsing: 1-based line and column, and what the parser found there. */
export interface SyntaxProblem {
  line: number;
  column: number;
  /** Short description: `unexpected "}"`, `missing ")"`, or the parser's own words. */
  message: string;
}

/** How many problems a syntax check keeps: the first few say where to look. */
export const MAX_SYNTAX_PROBLEMS = 3;

/** Problems in file order, at most {@link MAX_SYNTAX_PROBLEMS}. */
export function firstProblems(problems: SyntaxProblem[]): SyntaxProblem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column).slice(0, MAX_SYNTAX_PROBLEMS);
}

/** 1-based line and column of a UTF-16 `offset` in `text`. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}
