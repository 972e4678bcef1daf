/**
 * The fuzzy pass's notion of "the same text": what a model typically changes when it copies code
 * back (smart quotes, dashes, odd spaces, compatibility characters, trailing whitespace, the line
 * numbers of read output). Each kind can be switched off so the result can name the kinds a match
 * actually needed.
 */

/** One way copied text may differ from the file and still count as the same. */
export type FuzzyKind = "line-numbers" | "trailing-whitespace" | "quotes" | "dashes" | "spaces" | "nfkc";

/** Every kind, in the order results list them. */
export const FUZZY_KINDS: readonly FuzzyKind[] = [
  "line-numbers",
  "trailing-whitespace",
  "quotes",
  "dashes",
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

const NON_ASCII = /[^\x00-\x7F]/;

/** A line in its compared form, with a way back to positions in the original line. */
export interface NormalizedLine {
  text: string;
  /** For each code unit of `text`, the offset in the original line it came from; absent = identity. */
  sources?: number[];
}

function mapCodePoint(cp: string, kinds: ReadonlySet<FuzzyKind>): string {
  if (kinds.has("quotes")) {
    if (SINGLE_QUOTES.has(cp)) return "'";
    if (DOUBLE_QUOTES.has(cp)) return '"';
  }
  if (kinds.has("dashes") && DASHES.has(cp)) return "-";
  if (kinds.has("spaces")) {
    if (SPACES.has(cp)) return " ";
    if (ZERO_WIDTH.has(cp)) return "";
  }
  // Characters the kinds above own are left alone here, so each difference is credited to one
  // kind. NFKD per code point (not NFKC of the whole line) keeps a position map, and two strings
  // are NFKC-equal exactly when their NFKD forms are.
  if (kinds.has("nfkc") && !isOwnedByOtherKind(cp)) return cp.normalize("NFKD");
  return cp;
}

function isOwnedByOtherKind(cp: string): boolean {
  return (
    SINGLE_QUOTES.has(cp) || DOUBLE_QUOTES.has(cp) || DASHES.has(cp) || SPACES.has(cp) || ZERO_WIDTH.has(cp)
  );
}

/** Normalises one line (no line breaks) under `kinds`. Trailing whitespace is handled by the matcher. */
export function normalizeLine(line: string, kinds: ReadonlySet<FuzzyKind>): NormalizedLine {
  if (!NON_ASCII.test(line)) return { text: line };
  let text = "";
  const sources: number[] = [];
  let offset = 0;
  for (const cp of line) {
    const mapped = mapCodePoint(cp, kinds);
    for (let i = 0; i < mapped.length; i++) sources.push(offset);
    text += mapped;
    offset += cp.length;
  }
  return { text, sources };
}

/** Offset in the original line where normalised position `index` starts. */
export function sourceStart(line: string, normalized: NormalizedLine, index: number): number {
  if (!normalized.sources) return index;
  if (index >= normalized.sources.length) return line.length;
  return normalized.sources[index] as number;
}

/** Offset in the original line just after normalised position `endIndex - 1` (whole code points). */
export function sourceEnd(line: string, normalized: NormalizedLine, endIndex: number): number {
  if (!normalized.sources) return endIndex;
  if (endIndex <= 0) return 0;
  if (endIndex >= normalized.sources.length) return line.length;
  const start = normalized.sources[endIndex - 1] as number;
  const cp = line.codePointAt(start) ?? 0;
  return start + (cp > 0xffff ? 2 : 1);
}

/** Removes trailing spaces and tabs (and other whitespace) when the kind is on. */
export function trimEndIf(text: string, kinds: ReadonlySet<FuzzyKind>): string {
  return kinds.has("trailing-whitespace") ? text.trimEnd() : text;
}

// A line-number prefix as read output or an editor shows it: "  12\t", "12: ", "12 | ", "12→", or a
// bare number where a blank line lost its tab.
const LINE_NUMBER_PREFIX = /^\s*(\d+)(?:\t|: ?| ?\| ?|\u2192|$)/;

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
