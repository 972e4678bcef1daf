/** Which lines of oldText newText keeps: the alignment the file-spelling and placeholder steps share. */

/**
 * Above this many cells (changed oldText lines times changed newText lines) no common lines are
 * looked for inside the changed stretch: the lines there pair up by position.
 */
export const MAX_ALIGNED_CELLS = 250_000;

/** Pairs of equal lines (indexes into `a` and `b`), in order: a longest common subsequence. */
export function commonLines(a: readonly string[], b: readonly string[]): [number, number][] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const pairs: [number, number][] = [];
  for (let i = 0; i < start; i++) pairs.push([i, i]);
  const n = endA - start;
  const m = endB - start;
  if (n > 0 && m > 0 && n * m <= MAX_ALIGNED_CELLS) {
    const table: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        (table[i] as Uint32Array)[j] =
          a[start + i] === b[start + j]
            ? ((table[i + 1] as Uint32Array)[j + 1] as number) + 1
            : Math.max(
                (table[i + 1] as Uint32Array)[j] as number,
                (table[i] as Uint32Array)[j + 1] as number,
              );
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (a[start + i] === b[start + j]) {
        pairs.push([start + i, start + j]);
        i++;
        j++;
      } else if (((table[i + 1] as Uint32Array)[j] as number) >= ((table[i] as Uint32Array)[j + 1] as number))
        i++;
      else j++;
    }
  }
  for (let k = 0; k < a.length - endA; k++) pairs.push([endA + k, endB + k]);
  return pairs;
}

/** A stretch where `a` and `b` differ: lines `[oldStart, oldEnd)` of `a` became `[newStart, newEnd)` of `b`. */
export interface LineGap {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** The stretches between the common lines of `a` and `b` (see {@link commonLines}), in order. */
export function lineGaps(a: readonly string[], b: readonly string[]): LineGap[] {
  const gaps: LineGap[] = [];
  let oldStart = 0;
  let newStart = 0;
  for (const [oldIndex, newIndex] of [...commonLines(a, b), [a.length, b.length] as [number, number]]) {
    if (oldIndex > oldStart || newIndex > newStart) {
      gaps.push({ oldStart, oldEnd: oldIndex, newStart, newEnd: newIndex });
    }
    oldStart = oldIndex + 1;
    newStart = newIndex + 1;
  }
  return gaps;
}
