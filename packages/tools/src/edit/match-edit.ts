/**
 * Finds the places one edit applies to in the original text: exact places first, then the fuzzy
 * pass, each limited to matches on token boundaries (see `token-boundary.ts`).
 */
import { findExact } from "./exact-search.js";
import { type AmbiguousSpelling, respellReplacement } from "./file-spelling.js";
import type { FuzzyIndex, TextRange } from "./fuzzy.js";
import { findFuzzy } from "./fuzzy.js";
import { type FuzzyKind, stripLineNumberPrefixes } from "./normalize.js";
import { type Reading, unescapedReading } from "./readings.js";
import { exactOnBoundaries, onTokenBoundaries } from "./token-boundary.js";

/** Which matcher found an edit: `exact`, or `fuzzy:` plus the kinds of difference it forgave. */
export type MatcherName = "exact" | `fuzzy:${string}`;

/** Where one edit applies and what each place becomes. */
export interface Matched {
  ranges: TextRange[];
  matcher: MatcherName;
  kinds: FuzzyKind[];
  /** The replacement text (LF) of each range, in the same order. */
  texts: string[];
  /** oldText as it matched (copied line numbers removed for a fuzzy `line-numbers` match). */
  oldText: string;
  /** Characters of newText whose file spelling is ambiguous (see `file-spelling.ts`): refuse. */
  ambiguous?: AmbiguousSpelling[];
  /** Set when the texts as sent matched nowhere and this other reading of them did. */
  reading?: Reading;
  /** Another place oldText matches that overlaps one of `ranges`: oldText is not unique. */
  overlapping?: TextRange;
}

/** No place: `insideToken` lists the places that matched only inside a longer token. */
export interface NotMatched {
  insideToken: TextRange[];
}

/**
 * Matches one edit: its exact places (`exact`, found beforehand for all edits at once) when any
 * lies on token boundaries, else fuzzily. A place that starts or ends inside a longer
 * identifier or number never counts.
 */
export function matchEdit(
  lf: string,
  fuzzyIndex: () => FuzzyIndex,
  oldText: string,
  newText: string,
  exact: readonly number[],
): Matched | NotMatched {
  let starts = exact;
  let insideToken: TextRange[] = [];
  if (starts.some((start) => !onTokenBoundaries(lf, start, start + oldText.length))) {
    // Rare: search again with every occurrence, so one inside a token cannot hide a good one.
    const split = exactOnBoundaries(lf, oldText);
    starts = split.starts;
    insideToken = split.insideToken.map((start) => ({ start, end: start + oldText.length }));
  }
  if (starts.length > 0) {
    const overlapping = starts.length === 1 ? overlappingExact(lf, oldText, starts[0] as number) : undefined;
    const ranges = starts.map((start) => withTrailingWhitespace(lf, { start, end: start + oldText.length }));
    const texts = ranges.map((range) =>
      // Only a match that took in the file's trailing whitespace needs rebuilding from the file.
      range.end === range.start + oldText.length ? newText : rebuilt(lf, range, oldText, newText),
    );
    return {
      ranges,
      matcher: "exact",
      kinds: [],
      texts,
      oldText,
      ...(overlapping !== undefined
        ? { overlapping: { start: overlapping, end: overlapping + oldText.length } }
        : {}),
    };
  }
  const fuzzy = findFuzzy(fuzzyIndex(), oldText);
  if (fuzzy.ranges.length === 0) {
    const unescaped = unescapedReading(oldText, newText);
    if (unescaped) {
      const found = findExact(lf, unescaped.oldText);
      const again = matchEdit(lf, fuzzyIndex, unescaped.oldText, unescaped.newText, found);
      if (isMatched(again)) return { ...again, reading: "unescaped" };
    }
    return { insideToken: insideToken.length > 0 ? insideToken : fuzzy.insideToken };
  }
  // A model that copied numbered lines into oldText usually numbered newText the same way.
  const replacement = fuzzy.strippedLineNumbers
    ? (stripLineNumberPrefixes(newText.split("\n"))?.join("\n") ?? newText)
    : newText;
  const matchedOld = fuzzy.strippedLineNumbers
    ? (stripLineNumberPrefixes(oldText.split("\n"))?.join("\n") ?? oldText)
    : oldText;
  // The fuzzy pass only finds the place: each replacement keeps the file's own spelling.
  const ambiguous: AmbiguousSpelling[] = [];
  const ranges = fuzzy.ranges.map((range) => withTrailingWhitespace(lf, range));
  const texts = ranges.map((range) => {
    const respelled = respellReplacement(lf.slice(range.start, range.end), matchedOld, replacement);
    if ("text" in respelled) return respelled.text;
    ambiguous.push(...respelled.ambiguous);
    return replacement;
  });
  return {
    ranges,
    matcher: `fuzzy:${fuzzy.kinds.join("+")}`,
    kinds: fuzzy.kinds,
    texts,
    oldText: matchedOld,
    ...(ambiguous.length > 0 ? { ambiguous } : {}),
    ...(fuzzy.overlapping ? { overlapping: fuzzy.overlapping } : {}),
  };
}

/**
 * The range extended over whitespace that is all that is left of its last line: the line's
 * trailing whitespace then stays on that line instead of moving after whatever newText adds
 * below it.
 */
function withTrailingWhitespace(lf: string, range: TextRange): TextRange {
  const next = lf.charCodeAt(range.end);
  if (Number.isNaN(next) || next === 10 || range.end === range.start || lf[range.end - 1] === "\n") {
    return range;
  }
  const lineEnd = lf.indexOf("\n", range.end);
  const end = lineEnd === -1 ? lf.length : lineEnd;
  return /^[^\S\n]+$/.test(lf.slice(range.end, end)) ? { start: range.start, end } : range;
}

/** The replacement for an exact match extended by {@link withTrailingWhitespace}, from the file's text. */
function rebuilt(lf: string, range: TextRange, oldText: string, newText: string): string {
  const respelled = respellReplacement(lf.slice(range.start, range.end), oldText, newText);
  return "text" in respelled ? respelled.text : newText;
}

/**
 * The start of an occurrence of `needle` on token boundaries that overlaps the one at `start`
 * (`a\na` twice in `a\na\na`), looked for only within that one's reach: a bounded search.
 */
function overlappingExact(haystack: string, needle: string, start: number): number | undefined {
  const reach = haystack.slice(start + 1, start + 2 * needle.length - 1);
  for (let at = reach.indexOf(needle); at !== -1; at = reach.indexOf(needle, at + 1)) {
    const begin = start + 1 + at;
    if (onTokenBoundaries(haystack, begin, begin + needle.length)) return begin;
  }
  return undefined;
}

/** Type guard for a successful {@link matchEdit}. */
export function isMatched(result: Matched | NotMatched): result is Matched {
  return "ranges" in result;
}
