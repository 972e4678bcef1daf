/** Evidence that an edit whose oldText is gone was applied before. */

/** A line shared by oldText and newText counts as context when it has this many non-blank characters. */
export const MIN_CONTEXT_LINE_CHARS = 4;

/**
 * True when newText contains oldText and every occurrence of oldText in the file sits inside an
 * occurrence of newText: the edit was applied before (changing `f(a)` to `f(a, b)` twice would
 * otherwise give `f(a, b, b)`).
 */
export function insideNewText(
  lf: string,
  starts: readonly number[],
  oldText: string,
  newText: string,
): boolean {
  const offsets = findAllOverlapping(newText, oldText);
  if (offsets.length === 0) return false;
  return starts.every((start) =>
    offsets.some((offset) => start >= offset && lf.startsWith(newText, start - offset)),
  );
}

function findAllOverlapping(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/**
 * True when oldText and newText share a whole unchanged line around the change (before or
 * after it) with at least {@link MIN_CONTEXT_LINE_CHARS} non-blank characters. Then newText
 * found in the file sits where oldText's own context puts the change; `foo(1)` -> `bar(1)`
 * shares no line, so `bar(1)` elsewhere in the file proves nothing.
 */
export function hasSharedContext(oldText: string, newText: string): boolean {
  const shorter = Math.min(oldText.length, newText.length);
  let prefix = 0;
  while (prefix < shorter && oldText[prefix] === newText[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    oldText[oldText.length - 1 - suffix] === newText[newText.length - 1 - suffix]
  ) {
    suffix++;
  }
  // Whole lines only: the prefix up to its last line break, the suffix after its first one.
  const before = prefix > 0 ? oldText.slice(0, oldText.lastIndexOf("\n", prefix - 1) + 1) : "";
  const tail = oldText.slice(oldText.length - suffix);
  const after = tail.includes("\n") ? tail.slice(tail.indexOf("\n") + 1) : "";
  return [...before.split("\n"), ...after.split("\n")].some(
    (line) => line.trim().length >= MIN_CONTEXT_LINE_CHARS,
  );
}

/**
 * True when newText puts text of its own where oldText had something else: what is left of
 * newText without the start and end it shares with oldText is not blank. A pure deletion leaves
 * no trace in the file, so newText being there proves nothing (the lines may have changed
 * since, instead of being deleted).
 */
export function insertsText(oldText: string, newText: string): boolean {
  const shorter = Math.min(oldText.length, newText.length);
  let prefix = 0;
  while (prefix < shorter && oldText[prefix] === newText[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    oldText[oldText.length - 1 - suffix] === newText[newText.length - 1 - suffix]
  ) {
    suffix++;
  }
  return newText.slice(prefix, newText.length - suffix).trim() !== "";
}
