/**
 * The fuzzy pass's notion of "the same text": what a model typically changes when it copies code
 * back (smart quotes, dashes, odd spaces, compatibility characters, trailing whitespace, the line
 * numbers of read output). Each kind can be switched off so the result can name the kinds a match
 * actually needed.
 */

/** One way copied text may differ from the file and still count as the same. */
export type FuzzyKind =
  | "line-numbers"
  | "trailing-whitespace"
  | "quotes"
  | "dashes"
  | "punctuation"
  | "spaces"
  | "nfkc";

/** Every kind, in the order results list them. */
export const FUZZY_KINDS: readonly FuzzyKind[] = [
  "line-numbers",
  "trailing-whitespace",
  "quotes",
  "dashes",
  "punctuation",
  "spaces",
  "nfkc",
];

const SINGLE_QUOTES = new Set(["\u2018", "\u2019", "\u201A", "\u201B", "\u2032", "\u2035"]);
const DOUBLE_QUOTES = new Set(["\u201C", "\u201D", "\u201E", "\u201F", "\u2033", "\u2036"]);
const DASHES = new Set([
  "\u2010",
  "\u2011",
  "\u2012",
  "\u2013",
  "\u2014",
  "\u2015",
  "\u2212",
  "\uFE58",
  "\uFE63",
]);
const SPACES = new Set([
  "\u00A0",
  "\u1680",
  "\u2000",
  "\u2001",
  "\u2002",
  "\u2003",
  "\u2004",
  "\u2005",
  "\u2006",
  "\u2007",
  "\u2008",
  "\u2009",
  "\u200A",
  "\u202F",
  "\u205F",
  "\u3000",
]);
const ZERO_WIDTH = new Set(["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF"]);
/**
 * Ideographic punctuation with an ASCII counterpart that NFKC leaves alone (full-width forms
 * such as U+FF0C are NFKC's): a model writing Chinese or Japanese text back often swaps them.
 */
const CJK_PUNCTUATION = new Map([
  ["\u3001", ","],
  ["\u3002", "."],
  ["\uFF61", "."],
  ["\uFF64", ","],
  ["\u301C", "~"],
]);

const NON_ASCII = /[^\x00-\x7F]/;

function mapCodePoint(cp: string, kinds: ReadonlySet<FuzzyKind>): string {
  if (kinds.has("quotes")) {
    if (SINGLE_QUOTES.has(cp)) return "'";
    if (DOUBLE_QUOTES.has(cp)) return '"';
  }
  if (kinds.has("dashes") && DASHES.has(cp)) return "-";
  if (kinds.has("punctuation")) {
    const ascii = CJK_PUNCTUATION.get(cp);
    if (ascii !== undefined) return ascii;
  }
  if (kinds.has("spaces")) {
    if (SPACES.has(cp)) return " ";
    if (ZERO_WIDTH.has(cp)) return "";
  }
  // Characters the kinds above own are left alone here, so each difference is credited to one
  // kind. NFKD (not NFKC) keeps a position map, and two strings are NFKC-equal exactly when
  // their NFKD forms are.
  if (kinds.has("nfkc") && !isOwnedByOtherKind(cp)) return cp.normalize("NFKD");
  return cp;
}

function isOwnedByOtherKind(cp: string): boolean {
  return (
    SINGLE_QUOTES.has(cp) ||
    DOUBLE_QUOTES.has(cp) ||
    DASHES.has(cp) ||
    CJK_PUNCTUATION.has(cp) ||
    SPACES.has(cp) ||
    ZERO_WIDTH.has(cp)
  );
}

/** A line in its compared form, with a way back to positions in the original line. */
export interface NormalizedLine {
  text: string;
  /**
   * For each code unit of `text`, the offset in the original line of the character cluster
   * (a letter and its combining marks) it came from; absent = identity.
   */
  sources?: number[];
}

/** A character and the combining marks after it (or marks with no letter, at a line start). */
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gu;

/**
 * Normalises one line (no line breaks) under `kinds`. Trailing whitespace is handled by the
 * matcher. Works per cluster, not per code point: NFKD of a whole cluster puts several marks
 * in canonical order, so `e` + circumflex + dot below equals U+1EC7, and a match never ends
 * between a letter and its accent.
 */
export function normalizeLine(line: string, kinds: ReadonlySet<FuzzyKind>): NormalizedLine {
  if (!NON_ASCII.test(line)) return { text: line };
  let text = "";
  const sources: number[] = [];
  for (const match of line.matchAll(CLUSTER)) {
    const cluster = match[0];
    let mapped = "";
    for (const cp of cluster) mapped += mapCodePoint(cp, kinds);
    if (kinds.has("nfkc") && mapped.length > 1) mapped = mapped.normalize("NFKD");
    for (let i = 0; i < mapped.length; i++) sources.push(match.index);
    text += mapped;
  }
  return { text, sources };
}

/** Offset in the original line where normalised position `index` starts. */
export function sourceStart(line: string, normalized: NormalizedLine, index: number): number {
  if (!normalized.sources) return index;
  if (index >= normalized.sources.length) return line.length;
  return normalized.sources[index] as number;
}

/**
 * Offset in the original line just after normalised position `endIndex - 1`: the end of its
 * whole cluster, so a match that ends on a letter takes the letter's combining marks too.
 */
export function sourceEnd(line: string, normalized: NormalizedLine, endIndex: number): number {
  const sources = normalized.sources;
  if (!sources) return endIndex;
  if (endIndex <= 0) return 0;
  const last = sources[endIndex - 1] as number;
  for (let j = endIndex; j < sources.length; j++) {
    if ((sources[j] as number) !== last) return sources[j] as number;
  }
  return line.length;
}

/** Removes trailing spaces and tabs (and other whitespace) when the kind is on. */
export function trimEndIf(text: string, kinds: ReadonlySet<FuzzyKind>): string {
  return kinds.has("trailing-whitespace") ? text.trimEnd() : text;
}

// A line-number prefix as read output or an editor shows it: "  12\t", "12: ", "12 | ", "12→",
// "L12: " (other agents' listings), or a bare number where a blank line lost its tab.
const LINE_NUMBER_PREFIX = /^\s*L?(\d+)(?:\t|: ?| ?\| ?|\u2192|$)/;

/**
 * Strips copied line-number prefixes when every non-empty line has one and the numbers count up
 * by one (so a YAML line like "8080: x" alone is not mistaken for one). Returns undefined when
 * the lines do not look copied from numbered output.
 */
export function stripLineNumberPrefixes(lines: readonly string[]): string[] | undefined {
  let expected: number | undefined;
  let sawPrefix = false;
  const stripped: string[] = [];
  for (const line of lines) {
    if (line.trim() === "") {
      stripped.push("");
      if (expected !== undefined) expected += 1;
      continue;
    }
    const match = LINE_NUMBER_PREFIX.exec(line);
    if (!match) return undefined;
    const number = Number(match[1]);
    if (expected !== undefined && number !== expected) return undefined;
    expected = number + 1;
    sawPrefix = true;
    stripped.push(line.slice(match[0].length));
  }
  return sawPrefix ? stripped : undefined;
}
