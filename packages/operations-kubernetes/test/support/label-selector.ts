/**
 * Equality-based label selectors as the API server reads them (`a=b`, `a==b`, `a!=b`, `a`,
 * `!a`, comma-separated, all must hold). Set-based forms (`in`, `notin`) are not needed by the
 * tests and are refused.
 */
export function matchesSelector(selector: string, labels: Record<string, string>): boolean {
  for (const raw of selector.split(",")) {
    const term = raw.trim();
    if (term === "") continue;
    if (/\s(in|notin)\s/.test(term)) throw new Error(`set-based selector not supported here: ${term}`);
    const unequal = term.indexOf("!=");
    if (unequal !== -1) {
      if (labels[term.slice(0, unequal)] === term.slice(unequal + 2)) return false;
      continue;
    }
    const equal = term.indexOf("=");
    if (equal !== -1) {
      const value = term.slice(term[equal + 1] === "=" ? equal + 2 : equal + 1);
      if (labels[term.slice(0, equal)] !== value) return false;
      continue;
    }
    if (term.startsWith("!")) {
      if (term.slice(1) in labels) return false;
    } else if (!(term in labels)) return false;
  }
  return true;
}
