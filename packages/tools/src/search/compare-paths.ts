/**
 * Orders relative POSIX paths the way a sorted directory walk visits them: segment by segment,
 * each segment by Unicode code point (which is UTF-8 byte order, the order ripgrep's
 * `--sort path` uses). Plain string comparison differs in two places: `"a-b/x" < "a/x"` because
 * `-` sorts before `/`, and UTF-16 code units put U+E000..U+FFFF after astral characters.
 */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  // One scan, no splitting: up to the first difference both paths have the same segments so far,
  // so there a `/` (the end of a segment: the shorter segment first) sorts before any character.
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === SLASH) return -1;
    if (y === SLASH) return 1;
    return compareUnits(x, y);
  }
  // One is a prefix of the other: a shorter last segment, or fewer segments, comes first.
  return a.length - b.length;
}

const SLASH = 0x2f;

/** Orders two differing UTF-16 code units as the code points they belong to are ordered. */
function compareUnits(x: number, y: number): number {
  // Surrogates (0xD800-0xDFFF) encode code points above 0xFFFF: they must sort after
  // everything else in the BMP, including 0xE000-0xFFFF.
  const xs = x >= 0xd800 && x <= 0xdfff;
  const ys = y >= 0xd800 && y <= 0xdfff;
  if (xs !== ys) return xs ? 1 : -1;
  return x - y;
}

/** Compares two strings by code point (not by UTF-16 code unit). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return compareUnits(x, y);
  }
  return a.length - b.length;
}
