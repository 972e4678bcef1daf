/**
 * A file's text as the edit engine sees it: an LF-only view for matching, plus what is needed to
 * put every untouched byte back exactly (CRLF, LF and mixed endings line by line).
 *
 * Matching happens on `lf` (models send `\n`); output is built from slices of `original`, so a
 * line no edit touches keeps its own ending even in a file that mixes CRLF and LF.
 */
export interface EditDocument {
  /** The decoded text as it is on disk (BOM already stripped by the decoder). */
  readonly original: string;
  /** `original` with every CRLF turned into LF. */
  readonly lf: string;
  /** Ascending offsets in `lf` of the `\n` characters that were CRLF on disk. */
  readonly crlfBreaks: readonly number[];
  /** The ending a new line gets when nothing around it says otherwise. */
  readonly dominantEol: "\n" | "\r\n";
}

/** Builds the LF view of `text`, remembering where CRLF endings were. */
export function createEditDocument(text: string): EditDocument {
  if (!text.includes("\r\n")) {
    return { original: text, lf: text, crlfBreaks: [], dominantEol: "\n" };
  }
  const crlfBreaks: number[] = [];
  const parts: string[] = [];
  let lfBreaks = 0;
  let from = 0;
  let removed = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) {
      parts.push(text.slice(from, at - 1));
      from = at;
      removed += 1;
      crlfBreaks.push(at - removed);
    } else {
      lfBreaks += 1;
    }
  }
  parts.push(text.slice(from));
  return {
    original: text,
    lf: parts.join(""),
    crlfBreaks,
    dominantEol: crlfBreaks.length >= lfBreaks ? "\r\n" : "\n",
  };
}

/** Index of the first element of `sorted` that is >= `value`. */
export function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Maps an offset in the LF view to the same place in `original`. */
export function toOriginalOffset(doc: EditDocument, lfOffset: number): number {
  // Every CRLF break strictly before the offset added one `\r` on disk.
  return lfOffset + lowerBound(doc.crlfBreaks, lfOffset);
}

/** Whether the `\n` at `lfOffset` was a CRLF on disk. */
export function isCrlfBreak(doc: EditDocument, lfOffset: number): boolean {
  const index = lowerBound(doc.crlfBreaks, lfOffset);
  return doc.crlfBreaks[index] === lfOffset;
}

/**
 * The endings the line breaks of a replacement get, so mixed files stay mixed line by line: the
 * i-th break of the new text takes the ending of the i-th break the match covered; extra breaks
 * repeat the last one; with no break in the match, the ending of the line the match sits on.
 */
export function endingsForReplacement(doc: EditDocument, start: number, end: number): string[] {
  if (doc.crlfBreaks.length === 0) return [];
  const endings: string[] = [];
  for (let at = doc.lf.indexOf("\n", start); at !== -1 && at < end; at = doc.lf.indexOf("\n", at + 1)) {
    endings.push(isCrlfBreak(doc, at) ? "\r\n" : "\n");
  }
  if (endings.length === 0) {
    const next = doc.lf.indexOf("\n", end);
    endings.push(next === -1 ? doc.dominantEol : isCrlfBreak(doc, next) ? "\r\n" : "\n");
  }
  return endings;
}

/** Writes `lfText` with the given endings (see {@link endingsForReplacement}). */
export function applyEndings(lfText: string, endings: readonly string[]): string {
  if (endings.length === 0 || !lfText.includes("\n")) return lfText;
  if (endings.every((eol) => eol === "\n")) return lfText;
  const lines = lfText.split("\n");
  let out = lines[0] as string;
  for (let i = 1; i < lines.length; i++) {
    out += (endings[Math.min(i - 1, endings.length - 1)] as string) + lines[i];
  }
  return out;
}

/** A replacement placed in `original`: the span it replaces and its text in the file's own line endings. */
export interface OriginalSpan {
  start: number;
  end: number;
  text: string;
}

/**
 * Places replacements (LF-view offsets and LF text, sorted, not overlapping) in `original`, each
 * text written with the endings of the lines it replaces (see {@link endingsForReplacement}).
 */
export function originalSpans(
  doc: EditDocument,
  replacements: readonly { start: number; end: number; text: string }[],
): OriginalSpan[] {
  return replacements.map((replacement) => ({
    start: toOriginalOffset(doc, replacement.start),
    end: toOriginalOffset(doc, replacement.end),
    text: applyEndings(replacement.text, endingsForReplacement(doc, replacement.start, replacement.end)),
  }));
}

/** Splices spans (sorted, not overlapping) into `original`, keeping every untouched character. */
export function spliceSpans(original: string, spans: readonly OriginalSpan[]): string {
  if (spans.length === 0) return original;
  const parts: string[] = [];
  let cursor = 0;
  for (const span of spans) {
    parts.push(original.slice(cursor, span.start), span.text);
    cursor = span.end;
  }
  parts.push(original.slice(cursor));
  return parts.join("");
}

/** 1-based line number of `lfOffset`, counting from a known earlier position. */
export function lineNumberAt(lf: string, lfOffset: number, from = { offset: 0, line: 1 }): number {
  let line = from.line;
  for (let at = lf.indexOf("\n", from.offset); at !== -1 && at < lfOffset; at = lf.indexOf("\n", at + 1)) {
    line += 1;
  }
  return line;
}
