/** Line-ending facts about a text, for writing it back the way it was. */

/** The line ending most lines of `text` use (`"\n"` when there are none or LF wins). */
export function dominantLineEnding(text: string): "\n" | "\r\n" {
  let crlf = 0;
  let lf = 0;
  let at = text.indexOf("\n");
  while (at !== -1) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf++;
    else lf++;
    at = text.indexOf("\n", at + 1);
  }
  return crlf > lf ? "\r\n" : "\n";
}

/** Lines of `text` the way truncate and read count them: a final newline ends a line. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  let at = text.indexOf("\n");
  while (at !== -1) {
    lines++;
    at = text.indexOf("\n", at + 1);
  }
  return text.endsWith("\n") ? lines : lines + 1;
}
