/**
 * Where each hunk of an Update File section applies, on the edit engine's matchers: exact first,
 * then the fuzzy pass (quotes, dashes, spaces, Unicode forms, trailing whitespace), always on
 * whole lines. Hunks apply in file order, each after the previous one (as Codex applies them);
 * `@@` lines move the start to just after the line they name. A hunk without an anchor that
 * matches in several places is refused, never guessed; with an anchor, the first place after it
 * is the one meant. Kept lines are written as the file has them, so a fuzzy match changes only
 * the lines the hunk adds or removes.
 */
import { ToolError } from "@tackle/agent-core";
import { hasSharedContext } from "../edit/already-applied.js";
import { findClosestRegion } from "../edit/closest.js";
import { lineNumberAt } from "../edit/document.js";
import { findExact } from "../edit/exact-search.js";
import { comparableLine, FuzzyIndex, findFuzzy } from "../edit/fuzzy.js";
import {
  alreadyAppliedNote,
  ambiguousMessage,
  anchorNotFoundMessage,
  hunkLabel,
  noMatchMessage,
  notAtEndMessage,
  overlapMessage,
} from "./messages.js";
import { type HunkLine, newLinesOf, oldLinesOf, type PatchHunk } from "./parse.js";

/** What happened to one hunk. */
export interface HunkOutcome {
  hunk: number;
  status: "applied" | "already_applied";
  /** `exact`, or `fuzzy:<kinds>` as the edit tool names them. */
  matcher?: string;
  /** 1-based line in the original file where it applied (or where its lines already are). */
  line: number;
  /** Set when already applied: what the model is told. */
  note?: string;
}

/** One replacement in the LF view of the file (sorted, never overlapping). */
export interface HunkReplacement {
  edit: number;
  start: number;
  end: number;
  text: string;
}

/** The hunks of one section, placed. */
export interface LocatedHunks {
  replacements: HunkReplacement[];
  outcomes: HunkOutcome[];
}

interface Found {
  start: number;
  end: number;
  matcher: string;
  strippedLineNumbers: boolean;
}

const joinLines = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join("");

/**
 * Places every hunk in `lf` (the file's LF view) or throws a `ToolError` (`no_match`,
 * `ambiguous_match`, `overlapping_edits`) naming the file, hunk, patch line and closest lines.
 */
export function locateHunks(lf: string, hunks: readonly PatchHunk[], path: string): LocatedHunks {
  // Matching works on whole lines, each ending in "\n": a last line without one gets it for the search.
  const text = lf === "" || lf.endsWith("\n") ? lf : `${lf}\n`;
  let index: FuzzyIndex | undefined;
  const fuzzyIndex = () => {
    index ??= new FuzzyIndex(text);
    return index;
  };
  const lineAt = (offset: number) => lineNumberAt(text, offset);
  const replacements: HunkReplacement[] = [];
  const outcomes: HunkOutcome[] = [];
  let cursor = 0;

  hunks.forEach((hunk, h) => {
    const label = hunkLabel(h, hunk.patchLine, path);
    let anchorStart: number | undefined;
    for (const anchor of hunk.anchors) {
      const at = findAnchorLine(fuzzyIndex(), anchor, cursor);
      if (at === undefined) {
        throw new ToolError("no_match", anchorNotFoundMessage(label, anchor, lineAt(cursor)), {
          details: { hunk: h, patchLine: hunk.patchLine, anchor },
        });
      }
      anchorStart = at.start;
      cursor = at.end;
    }
    const anchored = anchorStart !== undefined;
    let lines = hunk.lines;
    if (oldLinesOf(hunk).length === 0) {
      // Only added lines: right after the `@@` line, or (as Codex does) at the end of the file.
      const at = anchored ? cursor : text.length;
      replacements.push({ edit: h, start: at, end: at, text: joinLines(newLinesOf(hunk)) });
      outcomes.push({ hunk: h, status: "applied", matcher: "exact", line: lineAt(at) });
      return;
    }
    let found = findHunk(text, fuzzyIndex, lines, cursor);
    if (found.length === 0 && lines[lines.length - 1]?.text === "" && lines[lines.length - 1]?.op !== "+") {
      // A blank kept line at the end stands for the file's final line break (Codex reads it so).
      lines = lines.slice(0, -1);
      found = findHunk(text, fuzzyIndex, lines, cursor);
    }
    if (found.length === 0 && anchorStart !== undefined) {
      // The model repeated the `@@` line as the hunk's first kept line.
      found = findHunk(text, fuzzyIndex, lines, anchorStart);
    }
    if (hunk.endOfFile) {
      const atEnd = found.filter((place) => place.end === text.length);
      if (atEnd.length === 0 && found.length > 0) {
        throw new ToolError("no_match", notAtEndMessage(label, lineAt((found[0] as Found).start)), {
          details: { hunk: h, patchLine: hunk.patchLine },
        });
      }
      found = atEnd.slice(-1);
    }
    if (found.length === 0) {
      const already = findApplied(text, lines, cursor);
      if (already !== undefined) {
        const line = lineAt(already);
        outcomes.push({
          hunk: h,
          status: "already_applied",
          line,
          note: alreadyAppliedNote(label, line),
        });
        return;
      }
      const oldText = oldLinesOf({ ...hunk, lines }).join("\n");
      const region = findClosestRegion(fuzzyIndex(), oldText);
      throw new ToolError("no_match", noMatchMessage(label, region, lineAt(cursor)), {
        details: { hunk: h, patchLine: hunk.patchLine, closestRegion: region },
      });
    }
    if (found.length > 1 && !anchored) {
      const places = found.map((place) => lineAt(place.start));
      throw new ToolError("ambiguous_match", ambiguousMessage(label, places), {
        details: { hunk: h, patchLine: hunk.patchLine, lines: places },
      });
    }
    const place = found[0] as Found;
    replacements.push({ edit: h, start: place.start, end: place.end, text: rebuild(text, place, lines) });
    outcomes.push({ hunk: h, status: "applied", matcher: place.matcher, line: lineAt(place.start) });
    cursor = place.end;
  });

  replacements.sort((a, b) => a.start - b.start || a.edit - b.edit);
  for (let r = 1; r < replacements.length; r++) {
    const before = replacements[r - 1] as HunkReplacement;
    const after = replacements[r] as HunkReplacement;
    if (before.end > after.start) {
      const hunkOf = (i: number) => hunkLabel(i, (hunks[i] as PatchHunk).patchLine, path);
      throw new ToolError(
        "overlapping_edits",
        overlapMessage(hunkOf(before.edit), hunkOf(after.edit), lineAt(after.start)),
        { details: { hunks: [before.edit, after.edit] } },
      );
    }
  }
  return { replacements: replacements.map((replacement) => fitToFile(replacement, lf, text)), outcomes };
}

/** Whether `offset` starts a line of `text`. */
const atLineStart = (text: string, offset: number) => offset === 0 || text[offset - 1] === "\n";

/**
 * The places from `from` on where the hunk's kept and removed lines are, as whole lines: exact
 * places when there are any, else fuzzy ones.
 */
function findHunk(
  text: string,
  fuzzyIndex: () => FuzzyIndex,
  lines: readonly HunkLine[],
  from: number,
): Found[] {
  const oldText = joinLines(lines.filter((line) => line.op !== "+").map((line) => line.text));
  const exact = findExact(text, oldText).filter((start) => start >= from && atLineStart(text, start));
  if (exact.length > 0) {
    return exact.map((start) => ({
      start,
      end: start + oldText.length,
      matcher: "exact",
      strippedLineNumbers: false,
    }));
  }
  const fuzzy = findFuzzy(fuzzyIndex(), oldText);
  return fuzzy.ranges
    .filter((range) => range.start >= from && atLineStart(text, range.start) && atLineStart(text, range.end))
    .map((range) => ({
      ...range,
      matcher: `fuzzy:${fuzzy.kinds.join("+")}`,
      strippedLineNumbers: fuzzy.strippedLineNumbers,
    }));
}

/**
 * The line an `@@` anchor names, from `from` on: the same line, then the same after trimming,
 * then the same under the fuzzy kinds. Returns the line's start and the start of the next line.
 */
function findAnchorLine(
  index: FuzzyIndex,
  anchor: string,
  from: number,
): { start: number; end: number } | undefined {
  const wanted = anchor.trim();
  const comparable = comparableLine(anchor).trim();
  const tests: ((line: string, i: number) => boolean)[] = [
    (line) => line === anchor,
    (line) => line.trim() === wanted,
    (_line, i) => index.comparable(i).trim() === comparable,
  ];
  for (const test of tests) {
    for (let i = 0; i < index.lines.length; i++) {
      const start = index.lineStarts[i] as number;
      if (start < from) continue;
      if (wanted !== "" && test(index.lines[i] as string, i)) {
        return { start, end: start + (index.lines[i] as string).length + 1 };
      }
    }
  }
  return undefined;
}

/**
 * The replacement for a matched place: added lines as the patch has them, kept lines as the
 * file has them (a fuzzy match must not rewrite lines the hunk does not change).
 */
function rebuild(text: string, place: Found, lines: readonly HunkLine[]): string {
  const fileLines = text.slice(place.start, place.end).split("\n");
  let next = 0;
  let out = "";
  for (const line of lines) {
    if (line.op === "+") {
      out += `${place.strippedLineNumbers ? stripNumber(line.text) : line.text}\n`;
      continue;
    }
    const fileLine = fileLines[next++] as string;
    if (line.op === " ") out += `${fileLine}\n`;
  }
  return out;
}

/** A copied `  12\t` line-number prefix taken off an added line (when the match needed it off). */
function stripNumber(line: string): string {
  return line.replace(/^\s*\d+\t/, "");
}

/**
 * Where the hunk's result already is (its kept and added lines, from `from` on, exactly once)
 * while its removed lines are gone: the patch was applied before. Needs an unchanged context
 * line, as the edit tool's "already applied" does, so a short added line elsewhere proves nothing.
 */
function findApplied(text: string, lines: readonly HunkLine[], from: number): number | undefined {
  const oldText = joinLines(lines.filter((line) => line.op !== "+").map((line) => line.text));
  const newText = joinLines(lines.filter((line) => line.op !== "-").map((line) => line.text));
  if (newText.trim() === "" || !hasSharedContext(oldText, newText)) return undefined;
  const places = findExact(text, newText).filter((start) => start >= from && atLineStart(text, start));
  return places.length === 1 ? places[0] : undefined;
}

/**
 * Maps a replacement found in `text` (the file with a final line break added for matching) back
 * onto `lf`: a file that did not end in a line break still does not.
 */
function fitToFile(replacement: HunkReplacement, lf: string, text: string): HunkReplacement {
  if (text.length === lf.length || replacement.end < text.length) return replacement;
  const withoutBreak = replacement.text.endsWith("\n") ? replacement.text.slice(0, -1) : replacement.text;
  if (replacement.start === text.length) {
    // Lines added after a last line that has no line break: the break goes before them.
    return {
      ...replacement,
      start: lf.length,
      end: lf.length,
      text: withoutBreak === "" && replacement.text === "" ? "" : `\n${withoutBreak}`,
    };
  }
  return { ...replacement, end: lf.length, text: withoutBreak };
}
