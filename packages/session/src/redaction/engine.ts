/**
 * The one redaction engine of every tool (read, grep, find, ls, edit's diffs, bash and powershell
 * output, job tails, the audit trail). It hides values, not names: known secret formats anywhere,
 * private key bodies, and literal secret-looking values assigned to secret-like names (see
 * {@link RedactionSource} for what counts as a literal where). Line by line and deterministic:
 * the same line in the same kind of text always comes out the same, whichever tool shows it, and
 * a line never changes how another line is redacted, except inside a private key block.
 */
import { addAssignmentSecrets } from "./assignments.js";
import { FORMAT_HINT, findFormatSecrets, type SecretSpan } from "./formats.js";
import { redactedPlaceholder } from "./kinds.js";
import {
  isPrivateKeyEnd,
  isPrivateKeyHeader,
  PRIVATE_KEY_HINT,
  privateKeyBodySpan,
  privateKeyStart,
} from "./private-keys.js";
import type { RedactionSource } from "./source.js";

/** Text holding none of these has no assignment to a secret-like name. */
const NAME_HINT = /pass|pwd|secret|token|credential|key|auth/i;

/**
 * False when `text` cannot hold a secret the engine hides (then {@link redactSecrets} returns it
 * unchanged, also any part of it): two scans for the formats' and names' hints.
 */
export function mayHoldSecret(text: string): boolean {
  return FORMAT_HINT.test(text) || NAME_HINT.test(text) || PRIVATE_KEY_HINT.test(text);
}

/** Secrets in one line outside a private key block, in order, not overlapping. */
export function findLineSecrets(line: string, source: RedactionSource): SecretSpan[] {
  if (!mayHoldSecret(line)) return [];
  const spans = findFormatSecrets(line);
  const key = privateKeyStart(line);
  if (key?.type === "inline") spans.push(key.span);
  addAssignmentSecrets(line, source, spans);
  return spans.sort((a, b) => a.start - b.start);
}

/** `line` with each span replaced by its placeholder. */
export function applySpans(line: string, spans: readonly SecretSpan[]): string {
  if (spans.length === 0) return line;
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += line.slice(at, span.start) + redactedPlaceholder(span.kind);
    at = span.end;
  }
  return out + line.slice(at);
}

/**
 * Redacts lines in order, carrying private key block state from line to line; for text that
 * arrives line by line (a stream) or in windows. Create one per text.
 */
export class LineRedactor {
  private inKey = false;

  constructor(private readonly source: RedactionSource) {}

  /**
   * Starts inside a private key block: the text begins after the BEGIN line (a tail, a read
   * window past the BEGIN line), which {@link redactLines} sees from a later END line.
   */
  startInsideKey(): void {
    this.inKey = true;
  }

  /** The secrets of the next line, in order. */
  spans(line: string): SecretSpan[] {
    if (this.inKey) {
      if (isPrivateKeyEnd(line)) {
        this.inKey = false;
        return findLineSecrets(line, this.source);
      }
      const body = privateKeyBodySpan(line);
      if (body) return [body];
      if (isPrivateKeyHeader(line)) return [];
      this.inKey = false;
    }
    const spans = findLineSecrets(line, this.source);
    if (privateKeyStart(line)?.type === "block") this.inKey = true;
    return spans;
  }

  /** The next line, redacted. */
  redact(line: string): string {
    return applySpans(line, this.spans(line));
  }
}

/**
 * True when `lines` begin inside a private key: an END line comes before any BEGIN line and
 * every line before it is a body or header line.
 */
function startsInsideKey(lines: readonly string[]): boolean {
  for (const line of lines) {
    if (isPrivateKeyEnd(line)) return true;
    if (privateKeyBodySpan(line) === undefined && !isPrivateKeyHeader(line)) return false;
  }
  return false;
}

/** A redactor for `lines` (a whole text, a window or a tail), started in the right state. */
export function lineRedactorFor(lines: readonly string[], source: RedactionSource): LineRedactor {
  const redactor = new LineRedactor(source);
  if (startsInsideKey(lines)) redactor.startInsideKey();
  return redactor;
}

/** Redacts each of `lines` (one output line per input line). */
export function redactLines(lines: readonly string[], source: RedactionSource): string[] {
  const redactor = lineRedactorFor(lines, source);
  return lines.map((line) => redactor.redact(line));
}

/**
 * Replaces the secrets in `text` with `[REDACTED:<kind>]` (kinds in docs/redaction.md). `source`
 * says what the text is (default `output`: command output or text of unknown type; use
 * {@link redactionSourceOf} for a file). A heuristic: it hides the common formats and literal
 * secrets, not every secret; do not point tools at secret stores.
 */
export function redactSecrets(text: string, source: RedactionSource = "output"): string {
  if (!mayHoldSecret(text)) return text;
  return redactLines(text.split("\n"), source).join("\n");
}
