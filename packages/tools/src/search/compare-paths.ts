/**
 * Orders relative POSIX paths the way a sorted directory walk visits them: segment by segment,
 * each segment by Unicode code point (which is UTF-8 byte order, the order ripgrep's
 * `--sort path` uses). Plain string comparison differs in two places: `"a-b/x" < "a/x"` because
 * `-` sorts before `/`, and UTF-16 code units put U+E000..U+FFFF after astral characters.
 */
export function comparePaths(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  const shared = Math.min(left.length, right.length);
  for (let i = 0; i < shared; i++) {
    const order = compareCodePoints(left[i]!, right[i]!);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** Compares two strings by code point (not by UTF-16 code unit). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (0xD800-0xDFFF) encode code points above 0xFFFF: they must sort after
    // everything else in the BMP, including 0xE000-0xFFFF.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
