/**
 * Editing a line that holds a secret without seeing it: a `[REDACTED:<kind>]` placeholder in an
 * edit's oldText stands for the value the engine hid at that place, and the same placeholder in
 * newText writes that value back. The model never sees the secret, and a placeholder is never
 * written into the file.
 */
import { ToolError } from "@tackle/agent-core";
import { lineRedactorFor } from "./engine.js";
import type { SecretSpan } from "./formats.js";
import { placeholderKind, REDACTED_PLACEHOLDER } from "./kinds.js";
import type { RedactionSource } from "./source.js";

/** A hidden value an expansion put back, so messages about the edit can hide it again. */
export interface RevealedSecret {
  value: string;
  kind: string;
}

/** Why placeholders could not be expanded (see {@link expandRedactedPlaceholders}). */
export type PlaceholderRefusal =
  /** oldText with the hidden values put back is not in the file. */
  | "not_found"
  /** oldText with the hidden values put back is in the file more than once. */
  | "ambiguous"
  /** newText holds a placeholder that no placeholder of oldText stands for. */
  | "unmatched_in_new";

/** The concrete texts of an edit, or why its placeholders cannot be expanded. */
export type PlaceholderExpansion =
  | {
      ok: true;
      oldText: string;
      newText: string;
      /** Placeholders replaced by hidden values (0: the texts are as given). */
      expanded: number;
      /** The hidden values put into the texts, with their kinds (see {@link hideRevealed}). */
      revealed: RevealedSecret[];
    }
  | { ok: false; refusal: PlaceholderRefusal; field: "oldText" | "newText"; placeholders: string[] };

/** Secrets of `text` as the engine hides them for `source`, with offsets in `text`. */
function secretsOf(text: string, source: RedactionSource): SecretSpan[] {
  const lines = text.split("\n");
  const redactor = lineRedactorFor(lines, source);
  const out: SecretSpan[] = [];
  let at = 0;
  for (const line of lines) {
    for (const span of redactor.spans(line))
      out.push({ ...span, start: at + span.start, end: at + span.end });
    at += line.length + 1;
  }
  return out;
}

/** Pieces of `text`: literal text and the placeholders not already in the file as text. */
function split(
  text: string,
  fileText: string,
): { literals: string[]; kinds: string[]; placeholders: string[] } {
  const literals: string[] = [];
  const kinds: string[] = [];
  const placeholders: string[] = [];
  let at = 0;
  for (const match of text.matchAll(REDACTED_PLACEHOLDER)) {
    // A placeholder the file holds as text (docs about redaction) is text, not a hidden value.
    if (fileText.includes(match[0])) continue;
    literals.push(text.slice(at, match.index));
    kinds.push(placeholderKind(match[0]));
    placeholders.push(match[0]);
    at = (match.index as number) + match[0].length;
  }
  literals.push(text.slice(at));
  return { literals, kinds, placeholders };
}

/**
 * The concrete oldText and newText of an edit whose texts hold `[REDACTED:<kind>]` placeholders
 * copied from redacted output, for `fileText` (the text the edit matches against) read as
 * `source` (`redactionSourceOf(path)`, the kind read used).
 *
 * - oldText: each placeholder matches the hidden value of its kind at that place; oldText with
 *   the values put back must occur exactly once, with the file's own text around each value
 *   exactly as given (no fuzzy matching across a hidden value).
 * - newText: the n-th placeholder of a kind stands for the n-th of that kind in oldText (or for
 *   the only one, when oldText holds one), so repeating it writes the original secret back.
 *
 * A placeholder the file itself holds as text is left as text. Texts without placeholders come
 * back unchanged (`expanded: 0`). Pure; never throws.
 */
export function expandRedactedPlaceholders(
  fileText: string,
  oldText: string,
  newText: string,
  source: RedactionSource,
): PlaceholderExpansion {
  const old = split(oldText, fileText);
  const fresh = split(newText, fileText);
  if (old.placeholders.length === 0 && fresh.placeholders.length === 0) {
    return { ok: true, oldText, newText, expanded: 0, revealed: [] };
  }
  if (old.placeholders.length === 0) {
    return {
      ok: false,
      refusal: "unmatched_in_new",
      field: "newText",
      placeholders: unique(fresh.placeholders),
    };
  }
  const secrets = secretsOf(fileText, source);
  const byStart = new Map(secrets.map((span) => [span.start, span]));
  const found: { start: number; end: number; values: string[] }[] = [];
  const wordAt = (at: number) => /[\p{L}\p{N}_]/u.test(fileText[at] ?? "");
  const first = old.literals[0] as string;
  for (const span of secrets) {
    if (span.kind !== old.kinds[0] || span.start < first.length) continue;
    if (fileText.slice(span.start - first.length, span.start) !== first) continue;
    const values: string[] = [];
    let at: number | undefined = span.start;
    for (let k = 0; k < old.kinds.length && at !== undefined; k++) {
      const secret = byStart.get(at);
      const literal = old.literals[k + 1] as string;
      if (!secret || secret.kind !== old.kinds[k] || !fileText.startsWith(literal, secret.end))
        at = undefined;
      else {
        values.push(fileText.slice(secret.start, secret.end));
        at = secret.end + literal.length;
      }
    }
    if (at === undefined) continue;
    const start = span.start - first.length;
    // Like edit's own matching: an oldText that starts or ends in a word character matches whole words.
    if (wordAt(start) && wordAt(start - 1)) continue;
    if (wordAt(at - 1) && wordAt(at)) continue;
    found.push({ start, end: at, values });
  }
  if (found.length !== 1) {
    return {
      ok: false,
      refusal: found.length === 0 ? "not_found" : "ambiguous",
      field: "oldText",
      placeholders: unique(old.placeholders),
    };
  }
  const match = found[0] as { start: number; end: number; values: string[] };
  const restored = restoreNewText(fresh, old.kinds, match.values);
  if (restored === undefined) {
    return {
      ok: false,
      refusal: "unmatched_in_new",
      field: "newText",
      placeholders: unique(fresh.placeholders),
    };
  }
  return {
    ok: true,
    oldText: fileText.slice(match.start, match.end),
    newText: restored,
    expanded: old.placeholders.length + fresh.placeholders.length,
    revealed: match.values.map((value, k) => ({ value, kind: old.kinds[k] as string })),
  };
}

/** `text` with every revealed value replaced by its placeholder again (longest first). */
export function hideRevealed(text: string, revealed: readonly RevealedSecret[]): string {
  let out = text;
  for (const secret of [...revealed].sort((a, b) => b.value.length - a.value.length)) {
    out = out.replaceAll(secret.value, `[REDACTED:${secret.kind}]`);
  }
  return out;
}

/** newText with each placeholder replaced by the value it stands for, or undefined when one stands for none. */
function restoreNewText(
  fresh: { literals: string[]; kinds: string[] },
  oldKinds: readonly string[],
  values: readonly string[],
): string | undefined {
  const seen = new Map<string, number>();
  let out = fresh.literals[0] as string;
  for (let k = 0; k < fresh.kinds.length; k++) {
    const kind = fresh.kinds[k] as string;
    const n = seen.get(kind) ?? 0;
    seen.set(kind, n + 1);
    const places = oldKinds.flatMap((oldKind, i) => (oldKind === kind ? [i] : []));
    const place = places.length === 1 ? places[0] : places[n];
    if (place === undefined) return undefined;
    out += (values[place] as string) + (fresh.literals[k + 1] as string);
  }
  return out;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** `error` with every revealed value hidden again in its message and details. */
export function hideRevealedInError(error: ToolError, revealed: readonly RevealedSecret[]): ToolError {
  const details =
    error.details === undefined
      ? undefined
      : JSON.parse(hideRevealed(JSON.stringify(error.details), revealed));
  return new ToolError(
    error.code,
    hideRevealed(error.message, revealed),
    details === undefined ? {} : { details },
  );
}
