/**
 * Output truncation shared by every tool: keep the head or the tail of a text by lines and
 * UTF-8 bytes (whichever limit is hit first), never returning a partial line except the one
 * explicit oversized-line case, and always reporting what was cut so the tool can say how to
 * get the rest.
 */
import { DEFAULTS } from "./defaults.js";

/** Limits for {@link truncateHead} and {@link truncateTail}. Defaults: `DEFAULTS.maxLines` / `DEFAULTS.maxBytes`. */
export interface TruncateOptions {
  maxLines?: number;
  maxBytes?: number;
}

/** Which limit cut the text, or `null` when nothing was cut. */
export type TruncatedBy = "lines" | "bytes" | null;

/** What {@link truncateHead} / {@link truncateTail} kept and what they cut. */
export interface TruncationResult {
  /** The kept text: whole lines joined with `\n` (the original text unchanged when nothing was cut). */
  content: string;
  truncated: boolean;
  truncatedBy: TruncatedBy;
  /** Lines in the input (a final `\n` ends the last line; it does not start a new one). */
  totalLines: number;
  /** UTF-8 bytes of the input. */
  totalBytes: number;
  /** Whole lines in `content` (a partial oversized line in tail mode counts as one). */
  outputLines: number;
  /** UTF-8 bytes of `content`. */
  outputBytes: number;
  /**
   * Head mode: the first line alone is larger than `maxBytes`, so nothing was kept (`content`
   * is empty). The caller says so and names another way to see that line.
   */
  firstLineExceedsLimit: boolean;
  /**
   * Tail mode: the last line alone is larger than `maxBytes`, so `content` is the end of that
   * line only (the one explicit partial-line case).
   */
  lastLinePartial: boolean;
  /** Limits that were applied. */
  maxLines: number;
  maxBytes: number;
}

/** What {@link truncateLine} kept of one line. */
export interface LineTruncation {
  /** The kept characters (no marker added: the caller words the notice). */
  text: string;
  truncated: boolean;
  /** Characters (UTF-16 code units) of the original line. */
  totalChars: number;
}

/** UTF-8 byte length of `text`, counting a lone surrogate as the 3 bytes of U+FFFD it encodes to. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n");
}

function limitsOf(options: TruncateOptions | undefined): { maxLines: number; maxBytes: number } {
  return {
    maxLines: Math.max(0, options?.maxLines ?? DEFAULTS.maxLines),
    maxBytes: Math.max(0, options?.maxBytes ?? DEFAULTS.maxBytes),
  };
}

function untouched(
  text: string,
  lines: number,
  bytes: number,
  limits: { maxLines: number; maxBytes: number },
) {
  return {
    content: text,
    truncated: false,
    truncatedBy: null,
    totalLines: lines,
    totalBytes: bytes,
    outputLines: lines,
    outputBytes: bytes,
    firstLineExceedsLimit: false,
    lastLinePartial: false,
    ...limits,
  } satisfies TruncationResult;
}

/**
 * Keeps the first lines of `text` within `maxLines` and `maxBytes` (whichever is hit first).
 * Use for file content, where the model continues with an offset.
 */
export function truncateHead(text: string, options?: TruncateOptions): TruncationResult {
  return headOf(splitLines(text), text, options);
}

/**
 * {@link truncateHead} for text already split into lines. Every element is a line, so a last
 * empty line counts (joined text cannot say whether its final `\n` ends a line or starts one).
 */
export function truncateHeadLines(lines: readonly string[], options?: TruncateOptions): TruncationResult {
  return headOf(lines, lines.join("\n"), options);
}

function headOf(
  lines: readonly string[],
  text: string,
  options: TruncateOptions | undefined,
): TruncationResult {
  const limits = limitsOf(options);
  const totalBytes = utf8ByteLength(text);
  if (lines.length <= limits.maxLines && totalBytes <= limits.maxBytes) {
    return untouched(text, lines.length, totalBytes, limits);
  }
  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: TruncatedBy = "lines";
  for (const line of lines) {
    if (kept.length >= limits.maxLines) break;
    const cost = utf8ByteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + cost > limits.maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    kept.push(line);
    bytes += cost;
  }
  return {
    content: kept.join("\n"),
    truncated: true,
    truncatedBy,
    totalLines: lines.length,
    totalBytes,
    outputLines: kept.length,
    outputBytes: bytes,
    firstLineExceedsLimit: truncatedBy === "bytes" && kept.length === 0,
    lastLinePartial: false,
    ...limits,
  };
}

/**
 * Keeps the last lines of `text` within `maxLines` and `maxBytes` (whichever is hit first).
 * Use for command output, where the end matters most. When the last line alone exceeds
 * `maxBytes`, its end is kept (`lastLinePartial`), cut on a character boundary.
 */
export function truncateTail(text: string, options?: TruncateOptions): TruncationResult {
  const limits = limitsOf(options);
  const lines = splitLines(text);
  const totalBytes = utf8ByteLength(text);
  if (lines.length <= limits.maxLines && totalBytes <= limits.maxBytes) {
    return untouched(text, lines.length, totalBytes, limits);
  }
  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: TruncatedBy = "lines";
  let lastLinePartial = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (kept.length >= limits.maxLines) break;
    const line = lines[i]!;
    const cost = utf8ByteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + cost > limits.maxBytes) {
      truncatedBy = "bytes";
      if (kept.length === 0 && limits.maxBytes > 0) {
        const end = sliceUtf8End(line, limits.maxBytes);
        kept.push(end);
        bytes = utf8ByteLength(end);
        lastLinePartial = true;
      }
      break;
    }
    kept.push(line);
    bytes += cost;
  }
  kept.reverse();
  return {
    content: kept.join("\n"),
    truncated: true,
    truncatedBy,
    totalLines: lines.length,
    totalBytes,
    outputLines: kept.length,
    outputBytes: bytes,
    firstLineExceedsLimit: false,
    lastLinePartial,
    ...limits,
  };
}

/**
 * Cuts one line to at most `maxChars` UTF-16 code units without splitting a surrogate pair
 * (the cut moves one unit earlier instead). Used for grep lines and overlong read lines.
 */
export function truncateLine(line: string, maxChars: number): LineTruncation {
  if (line.length <= maxChars) return { text: line, truncated: false, totalChars: line.length };
  let end = Math.max(0, maxChars);
  if (end > 0 && isHighSurrogate(line.charCodeAt(end - 1)) && isLowSurrogate(line.charCodeAt(end))) end--;
  return { text: line.slice(0, end), truncated: true, totalChars: line.length };
}

/** The longest end of `text` that fits in `maxBytes` UTF-8 bytes, starting on a character boundary. */
export function sliceUtf8End(text: string, maxBytes: number): string {
  let bytes = 0;
  let start = text.length;
  while (start > 0) {
    let next = start - 1;
    if (isLowSurrogate(text.charCodeAt(next)) && next > 0 && isHighSurrogate(text.charCodeAt(next - 1)))
      next--;
    const cost = utf8ByteLength(text.slice(next, start));
    if (bytes + cost > maxBytes) break;
    bytes += cost;
    start = next;
  }
  return text.slice(start);
}

/** The longest start of `text` that fits in `maxBytes` UTF-8 bytes, ending on a character boundary. */
export function sliceUtf8Start(text: string, maxBytes: number): string {
  if (utf8ByteLength(text) <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    let next = end + 1;
    if (isHighSurrogate(text.charCodeAt(end)) && isLowSurrogate(text.charCodeAt(next))) next++;
    const cost = utf8ByteLength(text.slice(end, next));
    if (bytes + cost > maxBytes) break;
    bytes += cost;
    end = next;
  }
  return text.slice(0, end);
}
