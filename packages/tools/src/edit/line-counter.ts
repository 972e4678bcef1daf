/** Line and column numbers of offsets in the edit engine's LF text. */

/**
 * 1-based line numbers of offsets in one text, counted from the nearest offset asked before (a
 * sorted list of known line starts): 50 edits spread over a 10 MB file count its lines once, not
 * once per edit.
 */
export class LineCounter {
  readonly #text: string;
  /** Known line starts and their line numbers, sorted by offset; starts with line 1 at 0. */
  readonly #offsets: number[] = [0];
  readonly #lines: number[] = [1];

  constructor(text: string) {
    this.#text = text;
  }

  /** Line numbers of ascending offsets. */
  linesOf(offsets: readonly number[]): number[] {
    return offsets.map((offset) => this.lineOf(offset));
  }

  lineOf(offset: number): number {
    const known = this.#offsets;
    let low = 0;
    let high = known.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((known[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    let cursor = known[low] as number;
    let line = this.#lines[low] as number;
    const text = this.#text;
    for (let at = text.indexOf("\n", cursor); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
      line += 1;
      cursor = at + 1;
    }
    if (cursor !== known[low]) {
      known.splice(low + 1, 0, cursor);
      this.#lines.splice(low + 1, 0, line);
    }
    return line;
  }
}

/** 1-based line and column (in characters, not UTF-16 units) of ascending offsets. */
export function positionsOf(
  lf: string,
  counter: LineCounter,
  offsets: readonly number[],
): { line: number; column: number }[] {
  const lines = counter.linesOf(offsets);
  return offsets.map((offset, i) => {
    const lineStart = lf.lastIndexOf("\n", offset - 1) + 1;
    let column = 1;
    for (const _ of lf.slice(lineStart, offset)) column++;
    return { line: lines[i] as number, column };
  });
}
