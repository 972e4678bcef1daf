import {
  FUZZY_KINDS,
  type FuzzyKind,
  type NormalizedLine,
  normalizeLine,
  sourceEnd,
  sourceStart,
  stripLineNumberPrefixes,
  trimEndIf,
} from "./normalize.js";
import { onTokenBoundaries } from "./token-boundary.js";

/** A range in the LF view of the file. */
export interface TextRange {
  start: number;
  end: number;
}

/** Fuzzy matches of one oldText, with the kinds of difference they needed. */
export interface FuzzyResult {
  ranges: TextRange[];
  /** Places that matched but start or end inside a longer token (see `token-boundary.ts`). */
  insideToken: TextRange[];
  /** A place that matches too but overlaps one of `ranges` (so oldText is not unique). */
  overlapping?: TextRange;
  kinds: FuzzyKind[];
  /** True when oldText matched only after dropping copied line-number prefixes. */
  strippedLineNumbers: boolean;
}

/** The file split into lines once, normalised lazily under every kind. */
export class FuzzyIndex {
  readonly lines: string[];
  readonly lineStarts: number[];
  private readonly cache: (NormalizedLine | undefined)[];
  private readonly compared: (string | undefined)[];

  constructor(readonly lf: string) {
    this.lines = lf.split("\n");
    this.lineStarts = new Array<number>(this.lines.length);
    let offset = 0;
    for (let i = 0; i < this.lines.length; i++) {
      this.lineStarts[i] = offset;
      offset += (this.lines[i] as string).length + 1;
    }
    this.cache = new Array(this.lines.length);
    this.compared = new Array(this.lines.length);
  }

  /** Line `i` normalised under every kind. */
  normalized(i: number): NormalizedLine {
    let hit = this.cache[i];
    if (!hit) {
      hit = normalizeLine(this.lines[i] as string, ALL_KINDS);
      this.cache[i] = hit;
    }
    return hit;
  }

  /** Line `i` normalised under every kind, trailing whitespace removed: the form lines are compared in. */
  comparable(i: number): string {
    let hit = this.compared[i];
    if (hit === undefined) {
      hit = this.normalized(i).text.trimEnd();
      this.compared[i] = hit;
    }
    return hit;
  }
}

const ALL_KINDS: ReadonlySet<FuzzyKind> = new Set(FUZZY_KINDS);

/** Where a multi-line oldText sits at a given start line, in normalised columns. */
interface LineMatch {
  line: number;
  startCol: number;
  lastLine: number;
  endCol: number;
}

/**
 * Matches `old` (already split into lines) at line `at` of the file. The first old line must end
 * the file line (it may start mid-line), middle lines must be equal, and the last old line must
 * start its file line. Trailing whitespace is forgiven where the kind is on.
 */
function matchAt(
  fileLine: (i: number) => NormalizedLine,
  old: readonly NormalizedLine[],
  at: number,
  kinds: ReadonlySet<FuzzyKind>,
): LineMatch | undefined {
  const k = old.length - 1;
  const first = trimEndIf(fileLine(at).text, kinds);
  const firstOld = trimEndIf((old[0] as NormalizedLine).text, kinds);
  if (!first.endsWith(firstOld)) return undefined;
  for (let j = 1; j < k; j++) {
    if (trimEndIf(fileLine(at + j).text, kinds) !== trimEndIf((old[j] as NormalizedLine).text, kinds)) {
      return undefined;
    }
  }
  const last = fileLine(at + k).text;
  const lastOld = (old[k] as NormalizedLine).text;
  let endCol: number;
  if (last.startsWith(lastOld)) endCol = lastOld.length;
  else if (kinds.has("trailing-whitespace") && last.trimEnd() === lastOld.trimEnd()) endCol = last.length;
  else return undefined;
  return { line: at, startCol: first.length - firstOld.length, lastLine: at + k, endCol };
}

/** Whether a match is accepted (on token boundaries); a refused one is kept aside for the error. */
type Accept = (match: LineMatch) => boolean;
/** Told of an accepted match that overlaps an earlier one (the two make the oldText ambiguous). */
type Overlap = (match: LineMatch) => void;

/**
 * All non-overlapping accepted matches of a one-line oldText inside line `at`. A refused
 * candidate does not block the ones that overlap it.
 */
function matchesInLine(
  fileLine: NormalizedLine,
  old: NormalizedLine,
  at: number,
  kinds: ReadonlySet<FuzzyKind>,
  accept: Accept,
  overlap: Overlap,
): LineMatch[] {
  const found: LineMatch[] = [];
  const text = fileLine.text;
  const needle = old.text;
  let free = 0;
  for (let col = text.indexOf(needle); col !== -1; col = text.indexOf(needle, col + 1)) {
    const match = { line: at, startCol: col, lastLine: at, endCol: col + needle.length };
    if (col < free) {
      if (accept(match)) overlap(match);
      continue;
    }
    if (!accept(match)) continue;
    found.push(match);
    free = col + needle.length;
  }
  if (found.length === 0 && kinds.has("trailing-whitespace")) {
    // oldText carried trailing whitespace the file line does not have (or other whitespace).
    const trimmedNeedle = needle.trimEnd();
    const trimmedLine = text.trimEnd();
    if (trimmedNeedle !== needle && trimmedNeedle !== "" && trimmedLine.endsWith(trimmedNeedle)) {
      const match = {
        line: at,
        startCol: trimmedLine.length - trimmedNeedle.length,
        lastLine: at,
        endCol: text.length,
      };
      if (accept(match)) found.push(match);
    }
  }
  return found;
}

function searchLines(
  index: FuzzyIndex,
  oldLines: readonly string[],
  accept: Accept,
  overlap: Overlap,
): LineMatch[] {
  const old = oldLines.map((line) => normalizeLine(line, ALL_KINDS));
  const fileLine = (i: number) => index.normalized(i);
  const found: LineMatch[] = [];
  const lineCount = index.lines.length;
  if (old.length === 1) {
    if ((old[0] as NormalizedLine).text === "") return found;
    for (let at = 0; at < lineCount; at++) {
      found.push(...matchesInLine(fileLine(at), old[0] as NormalizedLine, at, ALL_KINDS, accept, overlap));
    }
    return found;
  }
  // Cheap rejection on the second line (a whole line) before the full check.
  const probe = old.length > 2 ? (old[1] as NormalizedLine).text.trimEnd() : undefined;
  let blockedUntil = -1;
  for (let at = 0; at + old.length - 1 < lineCount; at++) {
    if (probe !== undefined && index.comparable(at + 1) !== probe) continue;
    const match = matchAt(fileLine, old, at, ALL_KINDS);
    if (at <= blockedUntil) {
      // Inside the previous match: not a match of its own, but it makes oldText ambiguous.
      if (match && accept(match)) overlap(match);
      continue;
    }
    if (match && accept(match)) {
      found.push(match);
      // Matches of one oldText never overlap: continue after this one.
      blockedUntil = match.lastLine - (match.endCol === 0 ? 1 : 0);
    }
  }
  return found;
}

function toRange(index: FuzzyIndex, match: LineMatch): TextRange {
  const firstLine = index.lines[match.line] as string;
  const lastLine = index.lines[match.lastLine] as string;
  return {
    start:
      (index.lineStarts[match.line] as number) +
      sourceStart(firstLine, index.normalized(match.line), match.startCol),
    end:
      (index.lineStarts[match.lastLine] as number) +
      sourceEnd(lastLine, index.normalized(match.lastLine), match.endCol),
  };
}

/** Whether the matched file text equals `oldLines` under `kinds` (lines compared as the matcher does). */
function equalUnder(
  matchedLines: readonly string[],
  oldLines: readonly string[],
  kinds: ReadonlySet<FuzzyKind>,
) {
  const old = oldLines.map((line) => normalizeLine(line, kinds));
  const file = matchedLines.map((line) => normalizeLine(line, kinds));
  if (old.length === 1) {
    const a = (file[0] as NormalizedLine).text;
    const b = (old[0] as NormalizedLine).text;
    return a === b || (kinds.has("trailing-whitespace") && a.trimEnd() === b.trimEnd());
  }
  return matchAt((i) => file[i] as NormalizedLine, old, 0, kinds) !== undefined;
}

/** The kinds a match needed: those without which the matched text no longer equals oldText. */
function neededKinds(
  index: FuzzyIndex,
  range: TextRange,
  oldLines: readonly string[],
  strippedLineNumbers: boolean,
): FuzzyKind[] {
  const matchedLines = index.lf.slice(range.start, range.end).split("\n");
  const charKinds = FUZZY_KINDS.filter((kind) => kind !== "line-numbers");
  const needed = charKinds.filter((kind) => {
    const without = new Set(charKinds.filter((other) => other !== kind));
    return !equalUnder(matchedLines, oldLines, without);
  });
  if (needed.length === 0 && !strippedLineNumbers) {
    // Two kinds covered the same difference (a no-break space at a line end is both "spaces" and
    // trailing whitespace): name the ones that explain it alone.
    needed.push(...charKinds.filter((kind) => equalUnder(matchedLines, oldLines, new Set([kind]))));
  }
  return strippedLineNumbers ? ["line-numbers", ...needed] : needed;
}

/**
 * Finds `oldText` (LF) in the file with every fuzzy kind on. Tries the text as given first, then
 * without copied line-number prefixes. Matches never overlap each other.
 */
export function findFuzzy(index: FuzzyIndex, oldText: string): FuzzyResult {
  const insideToken: TextRange[] = [];
  const accept: Accept = (match) => {
    // A match must start and end between characters of the file, not inside one's decomposition
    // ("Cafe" is not "Café" with its accent left over).
    if (!onClusterBoundary(index, match.line, match.startCol)) return false;
    if (!onClusterBoundary(index, match.lastLine, match.endCol)) return false;
    const range = toRange(index, match);
    if (onTokenBoundaries(index.lf, range.start, range.end)) return true;
    insideToken.push(range);
    return false;
  };
  let overlapping: LineMatch | undefined;
  const overlap: Overlap = (match) => {
    overlapping ??= match;
  };
  const asGiven = oldText.split("\n");
  let oldLines: readonly string[] = asGiven;
  let strippedLineNumbers = false;
  let matches = searchLines(index, asGiven, accept, overlap);
  if (matches.length === 0) {
    const stripped = stripLineNumberPrefixes(asGiven);
    if (stripped) {
      matches = searchLines(index, stripped, accept, overlap);
      oldLines = stripped;
      strippedLineNumbers = matches.length > 0;
    }
  }
  const ranges = matches.map((match) => toRange(index, match));
  const kinds = ranges[0] ? neededKinds(index, ranges[0], oldLines, strippedLineNumbers) : [];
  return {
    ranges,
    insideToken: ranges.length > 0 ? [] : insideToken,
    ...(overlapping && ranges.length > 0 ? { overlapping: toRange(index, overlapping) } : {}),
    kinds,
    strippedLineNumbers,
  };
}

/** True when normalised column `col` of line `line` starts a new character of the file line (or ends the line). */
function onClusterBoundary(index: FuzzyIndex, line: number, col: number): boolean {
  const sources = index.normalized(line).sources;
  if (!sources || col <= 0 || col >= sources.length) return true;
  return sources[col] !== sources[col - 1];
}

/** Exposed for the closest-region hint: the comparable form of a line of oldText. */
export function comparableLine(line: string): string {
  return normalizeLine(line, ALL_KINDS).text.trimEnd();
}
