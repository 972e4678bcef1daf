/**
 * The one "make model text safe" step of the file tools (read, grep, find, ls): file content is
 * untrusted data. It composes the shell's own functions (`stripControl`, `markToolOutput`) and the
 * redaction engine every tool uses, so both kinds of tool remove, redact and mark the same way.
 */

import type { RedactionSource, SecretSpan } from "@tackle/session";
import { applySpans, LineRedactor, lineRedactorFor, REDACTED_PLACEHOLDER } from "@tackle/session";
import { markToolOutput, stripControl } from "../shell/sanitize.js";

export { REDACTED_PLACEHOLDER };

/** The marker `markToolOutput` puts on its own first and last line. */
const MARKER_OPEN = /^<tool-output source="[^"\n]*">$/;
const MARKER_CLOSE = "</tool-output>";

/** Model-safe lines and what was changed to get them (counts and kinds, never the text removed). */
export interface SafeLines {
  lines: string[];
  /** Lines that lost ANSI escapes or control characters. */
  controlLines: number;
  /** Lines with at least one secret replaced by a placeholder. */
  redactedLines: number;
  /** Kinds of secret redacted (`aws-access-key`, `assignment`, ...), sorted. */
  redactedKinds: string[];
}

/** What hosts see in a result's `details` when something was removed or redacted. */
export interface SanitizedDetails {
  controlLines: number;
  redactedLines: number;
  redactedKinds: string[];
}

/** Removes escapes and control characters (tab stays; a lone carriage return goes too). */
function stripLine(line: string): string {
  const stripped = stripControl(line);
  return stripped.includes("\r") ? stripped.replaceAll("\r", "") : stripped;
}

function placeholdersIn(text: string): string[] {
  return text.match(REDACTED_PLACEHOLDER) ?? [];
}

/**
 * Makes each line safe to show a model, one output line per input line (read's line numbers stay
 * right): escapes and control characters removed, secrets redacted by the one engine. `sources`
 * says what the lines are (one for all, or one per line for grep's lines of many files; see
 * `redactionSourceOf`); a private key block is followed across lines of one source.
 */
export function sanitizeLines(
  lines: readonly string[],
  sources: RedactionSource | readonly RedactionSource[] = "output",
): SafeLines {
  const out: string[] = new Array(lines.length);
  const stripped = lines.map(stripLine);
  const kinds = new Set<string>();
  let controlLines = 0;
  let redactedLines = 0;
  const sourceAt = (i: number): RedactionSource =>
    typeof sources === "string" ? sources : (sources[i] ?? "output");
  let runStart = 0;
  while (runStart < lines.length) {
    const source = sourceAt(runStart);
    let runEnd = runStart + 1;
    while (runEnd < lines.length && sourceAt(runEnd) === source) runEnd++;
    const redactor = lineRedactorFor(stripped.slice(runStart, runEnd), source);
    for (let i = runStart; i < runEnd; i++) {
      const line = stripped[i] as string;
      if (line !== lines[i]) controlLines++;
      const spans = redactor.spans(line);
      if (spans.length > 0) redactedLines++;
      for (const span of spans) kinds.add(span.kind);
      out[i] = applySpans(line, spans);
    }
    runStart = runEnd;
  }
  return { lines: out, controlLines, redactedLines, redactedKinds: [...kinds].sort() };
}

/**
 * {@link sanitizeLines} for a unified diff of a file whose text is `source`: each line is
 * redacted without its `+`/`-`/space prefix, the old side (`-` and context lines) and the new side
 * (`+` and context lines) each with its own private key state, so a removed key body is hidden
 * like an added one. Header lines (`---`, `+++`, `@@`) are redacted as output.
 */
export function sanitizeDiffLines(lines: readonly string[], source: RedactionSource): SafeLines {
  const stripped = lines.map(stripLine);
  const oldSide = new LineRedactor(source);
  const newSide = new LineRedactor(source);
  const out: string[] = new Array(lines.length);
  const kinds = new Set<string>();
  let controlLines = 0;
  let redactedLines = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = stripped[i] as string;
    if (line !== lines[i]) controlLines++;
    const prefix = line[0];
    const header = line.startsWith("---") || line.startsWith("+++") || line.startsWith("@@");
    let spans: SecretSpan[];
    if (header || (prefix !== "+" && prefix !== "-" && prefix !== " ")) {
      spans = new LineRedactor("output").spans(line);
    } else {
      const body = line.slice(1);
      const oldSpans = prefix === "+" ? [] : oldSide.spans(body);
      const newSpans = prefix === "-" ? [] : newSide.spans(body);
      spans = (prefix === "+" ? newSpans : oldSpans).map((span) => ({
        ...span,
        start: span.start + 1,
        end: span.end + 1,
      }));
    }
    if (spans.length > 0) redactedLines++;
    for (const span of spans) kinds.add(span.kind);
    out[i] = applySpans(line, spans);
  }
  return { lines: out, controlLines, redactedLines, redactedKinds: [...kinds].sort() };
}

/** Two sanitisations as one: lines of `a` then lines of `b`, counts added, kinds merged. */
export function mergeSafeLines(a: SafeLines, b: SafeLines): SafeLines {
  return {
    lines: [...a.lines, ...b.lines],
    controlLines: a.controlLines + b.controlLines,
    redactedLines: a.redactedLines + b.redactedLines,
    redactedKinds: [...new Set([...a.redactedKinds, ...b.redactedKinds])].sort(),
  };
}

/** The `details` record of a sanitisation, or undefined when nothing changed. */
export function sanitizedDetails(safe: SafeLines): SanitizedDetails | undefined {
  if (safe.controlLines === 0 && safe.redactedLines === 0) return undefined;
  return {
    controlLines: safe.controlLines,
    redactedLines: safe.redactedLines,
    redactedKinds: safe.redactedKinds,
  };
}

function lines(count: number): string {
  return `${count} line${count === 1 ? "" : "s"}`;
}

/**
 * One short notice saying what was removed or redacted and the next step, or undefined when
 * nothing was. `rawHint` names how to see the raw bytes (e.g. "bash with cat -v src/a.ts shows
 * them"); pass it only when the model has bash (see `hasTool`).
 */
export function sanitizeNotice(safe: SafeLines, rawHint: string | undefined): string | undefined {
  const parts: string[] = [];
  if (safe.controlLines > 0) {
    parts.push(
      `Control characters and escape sequences removed from ${lines(safe.controlLines)}${rawHint ? `; ${rawHint}` : ""}.`,
    );
  }
  if (safe.redactedLines > 0) {
    parts.push(
      `Secrets redacted on ${lines(safe.redactedLines)} (${safe.redactedKinds.join(", ")}), shown as [REDACTED:kind]; to edit such a line, copy it with its placeholder into oldText, and repeat the placeholder in newText to keep the secret.`,
    );
  }
  return parts.length > 0 ? parts.join(" ") : undefined;
}

/** Marks safe text as tool output, exactly as the shell tools mark theirs. */
export function markUntrusted(text: string, source: string): string {
  return markToolOutput(text, source);
}

/**
 * Removes a tool-output marker that sits on its own first and/or last line of text copied from a
 * result (edit's oldText/newText). Returns the text unchanged when there is none.
 */
export function stripToolOutputMarker(text: string): string {
  const parts = text.split("\n");
  let start = 0;
  let end = parts.length;
  if (parts.length > 0 && MARKER_OPEN.test(parts[0] as string)) start = 1;
  // A trailing newline after the closing marker leaves an empty last element.
  if (end - start > 0 && parts[end - 1] === "") end--;
  if (end - start > 0 && parts[end - 1] === MARKER_CLOSE) {
    end--;
  } else if (end < parts.length) {
    end = parts.length;
  }
  if (start === 0 && end === parts.length) return text;
  return parts.slice(start, end).join("\n");
}

/**
 * Placeholders in `text` that `original` does not itself contain: text copied from redacted
 * output, which must never be matched against or written over a real secret.
 */
export function unknownPlaceholders(text: string, original: string): string[] {
  return [...new Set(placeholdersIn(text))].filter((placeholder) => !original.includes(placeholder));
}
