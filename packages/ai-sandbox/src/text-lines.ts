/**
 * Lines `startLine` to `endLine` of `text` (1-based, inclusive) joined by the text's own line
 * ending, the way the AI SDK's sessions answer `readTextFile` with a range: the line ending after
 * the last line of the range is not included, an `endLine` past the end reads to the end (a final
 * line ending then shows as a trailing one). Without either bound: the whole text.
 */
export function linesOf(text: string, startLine?: number, endLine?: number): string {
  if (startLine === undefined && endLine === undefined) return text;
  const ending = text.includes("\r\n")
    ? "\r\n"
    : text.includes("\n")
      ? "\n"
      : text.includes("\r")
        ? "\r"
        : "\n";
  const lines = text.split(ending);
  const first = Math.max(1, startLine ?? 1) - 1;
  const last = Math.min(lines.length, endLine ?? lines.length);
  return lines.slice(first, last).join(ending);
}
