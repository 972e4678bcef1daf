/**
 * How read shows line numbers: the number right-aligned to the width of the largest number
 * shown, then a tab (`cat -n` style). Edit's fuzzy pass strips prefixes a model copied back.
 */

/** Formats lines numbered from `firstLine`. */
export function formatNumberedLines(lines: readonly string[], firstLine: number): string[] {
  const width = String(firstLine + Math.max(0, lines.length - 1)).length;
  return lines.map((line, i) => `${String(firstLine + i).padStart(width)}\t${line}`);
}

/** Matches the prefix {@link formatNumberedLines} adds (leading spaces, digits, one tab). */
export const LINE_NUMBER_PREFIX = /^ *\d+\t/;
