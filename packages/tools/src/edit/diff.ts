import { formatPatch, type StructuredPatchHunk, structuredPatch } from "diff";
import type { Replacement } from "./plan-types.js";

/** Unchanged lines shown around each change. */
export const DIFF_CONTEXT_LINES = 3;

/** A unified diff with its size, for `details` and for dry runs. */
export interface EditDiff {
  /** Unified diff (`--- a/path`, `+++ b/path`), LF line breaks. */
  patch: string;
  added: number;
  removed: number;
  /** 1-based line of the first change in the new file, or undefined when nothing changed. */
  firstChangedLine: number | undefined;
}

/** Offset of the start of the line `count` lines before the one holding `offset`. */
function lineStartBefore(lf: string, offset: number, count: number): number {
  let start = lf.lastIndexOf("\n", offset - 1) + 1;
  for (let i = 0; i < count && start > 0; i++) start = lf.lastIndexOf("\n", start - 2) + 1;
  return start;
}

/** Offset just after the line break that ends the line `count` lines after the one holding `offset`. */
function lineEndAfter(lf: string, offset: number, count: number): number {
  let end = offset;
  for (let i = 0; i <= count; i++) {
    const next = lf.indexOf("\n", end);
    if (next === -1) return lf.length;
    end = next + 1;
  }
  return end;
}

function countLines(lf: string, from: number, to: number): number {
  let lines = 0;
  for (let at = lf.indexOf("\n", from); at !== -1 && at < to; at = lf.indexOf("\n", at + 1)) lines += 1;
  return lines;
}

/**
 * Builds the unified diff of applying `replacements` (sorted, non-overlapping) to `lf`. Only
 * windows around the changes are diffed (with the `diff` package), so a few edits in a 10 MB
 * file cost as much as the lines they touch, not a diff of the whole file.
 */
export function buildEditDiff(path: string, lf: string, replacements: readonly Replacement[]): EditDiff {
  const hunks: StructuredPatchHunk[] = [];
  let added = 0;
  let removed = 0;
  let lineDelta = 0;
  let lineCursor = { offset: 0, line: 1 };
  let r = 0;
  while (r < replacements.length) {
    const first = replacements[r] as Replacement;
    const windowStart = lineStartBefore(lf, first.start, DIFF_CONTEXT_LINES);
    let windowEnd = lineEndAfter(lf, Math.max(first.start, first.end - 1), DIFF_CONTEXT_LINES);
    let last = r;
    // Merge the next replacement while its context window touches this one.
    while (last + 1 < replacements.length) {
      const next = replacements[last + 1] as Replacement;
      if (lineStartBefore(lf, next.start, DIFF_CONTEXT_LINES) > windowEnd) break;
      last += 1;
      windowEnd = Math.max(
        windowEnd,
        lineEndAfter(lf, Math.max(next.start, next.end - 1), DIFF_CONTEXT_LINES),
      );
    }
    const before = lf.slice(windowStart, windowEnd);
    let after = "";
    let cursor = windowStart;
    for (let i = r; i <= last; i++) {
      const replacement = replacements[i] as Replacement;
      after += lf.slice(cursor, replacement.start) + replacement.text;
      cursor = replacement.end;
    }
    after += lf.slice(cursor, windowEnd);
    const windowLine = lineCursor.line + countLines(lf, lineCursor.offset, windowStart);
    lineCursor = { offset: windowStart, line: windowLine };
    const patch = structuredPatch("a", "b", before, after, undefined, undefined, {
      context: DIFF_CONTEXT_LINES,
    });
    for (const hunk of patch.hunks) {
      hunk.oldStart += windowLine - 1;
      hunk.newStart += windowLine - 1 + lineDelta;
      for (const line of hunk.lines) {
        if (line.startsWith("+")) added += 1;
        else if (line.startsWith("-")) removed += 1;
      }
      hunks.push(hunk);
    }
    lineDelta += countLines(after, 0, after.length) - countLines(before, 0, before.length);
    r = last + 1;
  }
  const firstHunk = hunks[0];
  const firstChangedLine = firstHunk ? firstChangedNewLine(firstHunk) : undefined;
  const patch =
    hunks.length === 0
      ? ""
      : formatPatch({
          oldFileName: `a/${path}`,
          newFileName: `b/${path}`,
          oldHeader: undefined,
          newHeader: undefined,
          hunks,
        });
  return { patch: patch.replace(/^=+\n/m, ""), added, removed, firstChangedLine };
}

function firstChangedNewLine(hunk: StructuredPatchHunk): number {
  let line = hunk.newStart;
  for (const text of hunk.lines) {
    if (text.startsWith("+") || text.startsWith("-")) return line;
    if (!text.startsWith("\\")) line += 1;
  }
  return hunk.newStart;
}
