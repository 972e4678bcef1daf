/**
 * Other readings of an edit the model sent, tried only when the text as sent matches nowhere:
 * each must match exactly one way for the edit to apply, and the result names it.
 */

/** How an edit's texts were read: as sent, or with one layer of JSON escaping undone. */
export type Reading = "unescaped" | "sequential";

/** Escapes a text sent JSON-escaped twice shows instead of the characters they stand for. */
const LITERAL_ESCAPE = /\\[nt"r]/;

/**
 * oldText and newText with one layer of JSON string escaping undone (`\n` -> line break, `\"` ->
 * `"`), when oldText looks escaped twice: no real line break but a literal `\n`, `\t`, `\r` or `\"`.
 * Undefined when that does not apply or either text is not a valid JSON string body.
 */
export function unescapedReading(
  oldText: string,
  newText: string,
): { oldText: string; newText: string } | undefined {
  if (oldText.includes("\n") || !LITERAL_ESCAPE.test(oldText)) return undefined;
  const old = parseStringBody(oldText);
  const replacement = newText.includes("\\") ? parseStringBody(newText) : newText;
  if (old === undefined || replacement === undefined || old === oldText) return undefined;
  return { oldText: old, newText: replacement };
}

function parseStringBody(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(`"${text}"`);
    return typeof parsed === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}
