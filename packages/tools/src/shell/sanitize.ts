import { redactSecrets, stripControl } from "@tackle/session";

export { stripControl } from "@tackle/session";

/**
 * Collapses carriage-return rewrites the way a terminal shows them: of `a\rb\rc` only the last
 * segment stays visible. `\r\n` is a line ending, not a rewrite. A progress bar of 10,000
 * updates becomes its final state.
 */
export function collapseCarriageReturns(text: string): string {
  if (!text.includes("\r")) return text;
  const lines = text.replace(/\r+\n/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!line.includes("\r")) continue;
    const segments = line.split("\r");
    // A trailing \r (cursor back to column 0, nothing written yet) leaves the previous segment.
    let last = segments.length - 1;
    while (last > 0 && segments[last] === "") last--;
    lines[i] = segments[last] as string;
  }
  return lines.join("\n");
}

/**
 * Makes command output safe to show a model: escapes and control characters removed, progress
 * bars collapsed, known secret shapes redacted. Order matters: escapes first (a colour code inside
 * a token would hide it from redaction), carriage returns before control stripping (it is one).
 */
export function sanitizeOutput(text: string): string {
  return redactSecrets(stripControl(collapseCarriageReturns(text)));
}

/**
 * Wraps sanitised output so the model can tell data from instructions. Any copy of the closing
 * marker inside the output is defused first, so output cannot close the block early.
 */
export function markToolOutput(text: string, source: string): string {
  const safe = text.replaceAll("</tool-output>", "<\\/tool-output>");
  return `<tool-output source="${source}">\n${safe}\n</tool-output>`;
}
