/**
 * Token boundaries for the edit engine: an oldText that starts or ends with a letter, digit or
 * underscore must not match inside a longer identifier or number (`"30"` in `300`, `"total"` in
 * `subtotal`, `"1.5"` in `1.50`), in the exact pass and the fuzzy pass alike.
 */

/** A letter, digit, combining mark or underscore: the characters identifiers and numbers are made of. */
const WORD_CHAR = /^[\p{L}\p{N}\p{M}_]$/u;
const DIGIT = /^\p{Nd}$/u;

/** The code point that ends just before `offset` ("" at the start). */
function charBefore(text: string, offset: number): string {
  if (offset <= 0) return "";
  const low = text.charCodeAt(offset - 1);
  if (offset >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(offset - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(offset - 2, offset);
  }
  return text[offset - 1] as string;
}

/** The code point that starts at `offset` ("" at the end). */
function charAt(text: string, offset: number): string {
  if (offset >= text.length) return "";
  return String.fromCodePoint(text.codePointAt(offset) as number);
}

export const isWordChar = (char: string): boolean => char !== "" && WORD_CHAR.test(char);
const isDigit = (char: string): boolean => char !== "" && DIGIT.test(char);

/**
 * True when the text before `start` continues the token that starts there: a word character
 * before a word character, or `<digit>.` before a digit (`5` in `1.5`).
 */
function cutsAtStart(text: string, start: number): boolean {
  const first = charAt(text, start);
  if (!isWordChar(first)) return false;
  const before = charBefore(text, start);
  if (isWordChar(before)) return true;
  return isDigit(first) && before === "." && isDigit(charBefore(text, start - 1));
}

/** True when the text after `end` continues the token that ends there (`30` in `300`, `1.5` in `1.50`). */
function cutsAtEnd(text: string, end: number): boolean {
  const last = charBefore(text, end);
  if (!isWordChar(last)) return false;
  const after = charAt(text, end);
  if (isWordChar(after)) return true;
  return isDigit(last) && after === "." && isDigit(charAt(text, end + 1));
}

/**
 * True when the match `[start, end)` of `text` starts and ends on token boundaries wherever its
 * own first or last character is a word character. Matches that start or end with a space or
 * punctuation are not constrained on that side.
 */
export function onTokenBoundaries(text: string, start: number, end: number): boolean {
  return !cutsAtStart(text, start) && !cutsAtEnd(text, end);
}

/**
 * The longer tokens the match `[start, end)` cuts into: the one around its start, its end, or
 * both (one entry when they are the same token).
 */
export function cutTokens(text: string, start: number, end: number): string[] {
  const tokens: string[] = [];
  for (const [at, cuts] of [
    [start, cutsAtStart(text, start)],
    [end, cutsAtEnd(text, end)],
  ] as const) {
    if (!cuts) continue;
    const token = tokenAround(text, at, at);
    const spelled = text.slice(token.start, token.end);
    if (!tokens.includes(spelled)) tokens.push(spelled);
  }
  return tokens;
}

/** The whole token (identifier or number, decimals included) around the match `[start, end)`. */
export function tokenAround(text: string, start: number, end: number): { start: number; end: number } {
  let from = start;
  for (;;) {
    const before = charBefore(text, from);
    if (isWordChar(before)) from -= before.length;
    else if (before === "." && isDigit(charAt(text, from)) && isDigit(charBefore(text, from - 1))) from -= 1;
    else break;
  }
  let to = end;
  for (;;) {
    const after = charAt(text, to);
    if (isWordChar(after)) to += after.length;
    else if (after === "." && isDigit(charBefore(text, to)) && isDigit(charAt(text, to + 1))) to += 1;
    else break;
  }
  return { start: from, end: to };
}

/**
 * Starts of the non-overlapping occurrences of `needle` that lie on token boundaries, and the
 * starts of those that do not. Every occurrence is considered (overlapping ones too), so an
 * occurrence inside a longer token never hides a good one that overlaps it.
 */
export function exactOnBoundaries(
  haystack: string,
  needle: string,
): { starts: number[]; insideToken: number[] } {
  const starts: number[] = [];
  const insideToken: number[] = [];
  let free = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (!onTokenBoundaries(haystack, at, at + needle.length)) {
      if (at >= free) insideToken.push(at);
      continue;
    }
    if (at < free) continue;
    starts.push(at);
    free = at + needle.length;
  }
  return { starts, insideToken };
}
