/**
 * Exact substring search for the edit engine: every place an oldText occurs, for one text or for
 * all edits of a call in a single pass over the file.
 */

/** Starts of all non-overlapping occurrences of `needle` in `haystack` (none for an empty needle). */
export function findExact(haystack: string, needle: string): number[] {
  const starts: number[] = [];
  if (needle === "") return starts;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
    starts.push(at);
  }
  return starts;
}

/**
 * Characters of each needle the combined pattern holds: enough to make candidates rare, small
 * enough that 1,000 edits still compile to a modest regular expression. Candidates are checked
 * against the whole needle.
 */
const PATTERN_PREFIX_CHARS = 64;

/**
 * Fewer distinct needles than this are searched with one `indexOf` scan each: for a few, V8's
 * `indexOf` is faster than the combined pattern (CPU on 10 MB of TypeScript, 3-line needles:
 * 2 needles 4 vs 9 ms, 8 needles 25 vs 35 ms, 12 needles 35 vs 30 ms, 50 needles 142 vs 49 ms).
 */
export const ONE_PASS_MIN_NEEDLES = 10;

/**
 * {@link findExact} for many needles at once: the result's i-th entry equals
 * `findExact(haystack, needles[i])`. Proving that an oldText is unique means reading the file to
 * its end, once per edit with `indexOf` (50 edits on 10 MB: 50 full scans). Here one regular
 * expression, the alternation of every needle's first {@link PATTERN_PREFIX_CHARS} characters,
 * finds every place where any needle may start in one pass (V8 compiles such a literal
 * alternation to a table-driven scan), and each candidate is checked with `startsWith`. The scan
 * resumes one character after each candidate, never after the whole match, so an occurrence of
 * one needle inside another's is still found (overlap detection depends on it). Falls back to
 * one `indexOf` scan per needle when the engine refuses the pattern, and for fewer distinct
 * needles than `onePassFrom` (default {@link ONE_PASS_MIN_NEEDLES}; at least 2).
 */
export function findExactAll(
  haystack: string,
  needles: readonly string[],
  onePassFrom = ONE_PASS_MIN_NEEDLES,
): number[][] {
  const distinct = [...new Set(needles)].filter((needle) => needle !== "");
  if (distinct.length < Math.max(2, onePassFrom)) return needles.map((needle) => findExact(haystack, needle));
  let starts: Map<string, number[]> | undefined;
  try {
    starts = overlappingStarts(haystack, distinct);
  } catch {
    // A pattern too large for the regular expression engine: handled below like a costly pass.
  }
  // No pass (or one that would cost more than the scans): one scan per needle instead.
  if (starts === undefined) return needles.map((needle) => findExact(haystack, needle));
  return needles.map((needle) => nonOverlapping(starts.get(needle) ?? [], needle.length));
}

/**
 * How much checking one pass may do, in characters per character of the file: the scans it
 * replaces read the file once per needle, so past this it is no longer the cheaper way. Only
 * long runs of one repeated text get there (10 needles of 10,000 `a` in 2 MB of `a`: a
 * candidate at every character, each compared over 10,000 characters).
 */
export const ONE_PASS_WORK_PER_CHAR = 2;

/**
 * Every start of every needle, overlapping ones included, ascending per needle; undefined when
 * the pass would do more than {@link ONE_PASS_WORK_PER_CHAR} characters of comparison per
 * character of the file (counted as the pattern prefix per candidate plus each needle checked).
 */
export function overlappingStarts(
  haystack: string,
  needles: readonly string[],
): Map<string, number[]> | undefined {
  const prefixOf = (needle: string) => needle.slice(0, PATTERN_PREFIX_CHARS);
  // Longest prefixes first: the alternation then reports, at each place, the longest prefix that
  // matches there, and every other needle starting there has a prefix of that one.
  const prefixes = [...new Set(needles.map(prefixOf))].sort((a, b) => b.length - a.length);
  const candidatesOf = new Map<string, string[]>();
  for (const prefix of prefixes) {
    candidatesOf.set(
      prefix,
      needles.filter((needle) => prefix.startsWith(prefixOf(needle))),
    );
  }
  const pattern = new RegExp(prefixes.map(escapeRegExp).join("|"), "g");
  const starts = new Map<string, number[]>(needles.map((needle) => [needle, []]));
  let budget = ONE_PASS_WORK_PER_CHAR * haystack.length;
  for (let match = pattern.exec(haystack); match !== null; match = pattern.exec(haystack)) {
    const at = match.index;
    budget -= match[0].length;
    for (const needle of candidatesOf.get(match[0]) ?? []) {
      budget -= needle.length;
      if (haystack.startsWith(needle, at)) starts.get(needle)?.push(at);
    }
    if (budget < 0) return undefined;
    pattern.lastIndex = at + 1;
  }
  return starts;
}

/** Keeps the occurrences {@link findExact} reports: each one starts after the previous one ends. */
function nonOverlapping(starts: readonly number[], length: number): number[] {
  const kept: number[] = [];
  let free = 0;
  for (const start of starts) {
    if (start < free) continue;
    kept.push(start);
    free = start + length;
  }
  return kept;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}
