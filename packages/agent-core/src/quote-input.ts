/**
 * Quoting what a caller sent inside an error message. Model-facing errors name the bad input
 * ("File not found: ..."), but the input is whatever a model or a program wrote: a 1 MB path
 * would make a 1 MB error, and a string cut in the middle of a surrogate pair (or one that
 * arrived with a lone surrogate) makes text that is not well-formed Unicode, which some
 * providers refuse outright. Every layer quotes inputs through {@link quoteInput} and bounds
 * whole messages with {@link boundText}.
 */

/** Characters of an input shown by {@link quoteInput} before it is cut. */
export const QUOTED_INPUT_MAX_CHARS = 120;

/** Characters of a whole error message before {@link boundText} cuts it (64 K: above a tool's 50 KB output budget). */
export const ERROR_TEXT_MAX_CHARS = 64 * 1024;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` with every lone surrogate replaced by U+FFFD, so it is well-formed Unicode. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/** The first `max` UTF-16 units of `text`, one fewer when that would split a surrogate pair. */
export function sliceWhole(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** `1048576` -> `1,048,576`, the same on every locale. */
export function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

/**
 * An input quoted for an error message: JSON-quoted (control characters escaped), well-formed,
 * and when longer than `maxChars`, cut with an ellipsis and followed by its length.
 *
 * @example
 * ```ts
 * quoteInput("src/a.ts");            // "\"src/a.ts\""
 * quoteInput("a".repeat(1_048_576)); // "\"aaaa…\" (1,048,576 chars)" (120 a's shown)
 * ```
 */
export function quoteInput(value: string, maxChars: number = QUOTED_INPUT_MAX_CHARS): string {
  const text = wellFormed(String(value));
  if (text.length <= maxChars) return JSON.stringify(text);
  return `${JSON.stringify(`${sliceWhole(text, maxChars)}…`)} (${formatCount(text.length)} chars)`;
}

/**
 * An input shown without quotes (a path in "Not found: src/a.ts"): well-formed and, when longer
 * than `maxChars`, cut with an ellipsis and followed by its length. Control characters are
 * escaped as in JSON so a hostile name cannot start a new line of the message.
 */
export function shortenInput(value: string, maxChars: number = QUOTED_INPUT_MAX_CHARS): string {
  const text = wellFormed(String(value));
  const shown = text.length <= maxChars ? text : sliceWhole(text, maxChars);
  const escaped = shown.replace(/[\u0000-\u001f\u007f]/g, (char) => JSON.stringify(char).slice(1, -1));
  return text.length <= maxChars ? escaped : `${escaped}… (${formatCount(text.length)} chars)`;
}

/**
 * A whole message bounded to `maxChars` and well-formed: the safety net for text built from
 * inputs (the parts should already be quoted with {@link quoteInput}). A cut message says how
 * much was left out.
 */
export function boundText(text: string, maxChars: number = ERROR_TEXT_MAX_CHARS): string {
  const whole = wellFormed(text);
  if (whole.length <= maxChars) return whole;
  const kept = sliceWhole(whole, maxChars);
  return `${kept}… [${formatCount(whole.length - kept.length)} more characters cut]`;
}
