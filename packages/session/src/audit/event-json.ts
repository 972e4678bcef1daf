import type { AuditEvent } from "@tackle/agent-core";
import { mayHoldSecret, redactSecrets } from "../redaction/engine.js";
import { stripControl } from "../text/control.js";

/** Shorter strings cannot hold a secret shape `redactSecrets` knows (`K=abcdef` and `a://b:c@` are 8). */
const SHORTEST_SECRET = 8;

/** A string as the audit keeps it: the same cleaning as model output (controls removed, secrets redacted). */
function cleanString(value: string): string {
  const stripped = stripControl(value);
  return stripped.length < SHORTEST_SECRET ? stripped : redactSecrets(stripped);
}

/** `JSON.stringify` replacer that cleans every string value (keys are the emitters' own names). */
function cleanStrings(_key: string, value: unknown): unknown {
  return typeof value === "string" ? cleanString(value) : value;
}

/**
 * The JSON text of `event` with every string value passed through the same cleaning as model
 * output: escapes and control characters removed, known secret shapes replaced by
 * `[REDACTED:<kind>]`. Always exactly `JSON.stringify(event, cleanStrings)` (the JSONL sink's
 * line), and mostly without a replacer call per value: events are small plain objects whose
 * strings are mostly short printable ASCII. One walk over the values proves them clean (a
 * character loop finds no control character; only strings of {@link SHORTEST_SECRET} characters
 * or more are checked for the secret shapes' hints), and then the plain `JSON.stringify` is the
 * answer. The strings the recorder fills in (`callId`, `sessionId`, `at`) repeat from event to
 * event and are checked once. Anything else (a string to clean, a `toJSON`, a class instance,
 * deep nesting) takes the replacer.
 */
export function auditEventJson(event: AuditEvent): string {
  return eventIsClean(event as unknown as Record<string, unknown>)
    ? JSON.stringify(event)
    : JSON.stringify(event, cleanStrings);
}

/** Events nest three levels; deeper values (or a cycle) take the replacer. */
const MAX_DEPTH = 12;

/** Last clean value of each field the recorder fills in (see {@link auditEventJson}). */
const lastClean = new Map<string, string>([
  ["callId", ""],
  ["sessionId", ""],
  ["at", ""],
]);

function eventIsClean(event: Record<string, unknown>): boolean {
  if (!isPlainObject(event)) return false;
  for (const key in event) {
    const value = event[key];
    if (typeof value === "string") {
      const last = lastClean.get(key);
      if (last === value) continue;
      if (!stringIsClean(value)) return false;
      if (last !== undefined) lastClean.set(key, value);
    } else if (!isClean(value, 1)) {
      return false;
    }
  }
  return true;
}

/** True when `JSON.stringify` with the cleaning replacer would write `value` unchanged. */
function isClean(value: unknown, depth: number): boolean {
  if (typeof value === "string") return stringIsClean(value);
  if (typeof value !== "object" || value === null) return typeof value !== "bigint";
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (const item of value) if (!isClean(item, depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  for (const key in value) if (!isClean((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/**
 * Plain data only: a `toJSON`, a boxed primitive or a class instance is left to the replacer.
 * Its prototype (Object's or none) has no enumerable keys, so `for...in` sees own keys only.
 */
function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return (
    (proto === Object.prototype || proto === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function"
  );
}

/**
 * True when cleaning leaves `value` as it is. Text of printable ASCII, tab, newline and carriage
 * return holds nothing `stripControl` removes (escape sequences start with ESC or a C1 control),
 * so only the secret shapes are left to check; other text is cleaned and compared.
 */
function stringIsClean(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 || c >= 0x7f) && c !== 0x09 && c !== 0x0a && c !== 0x0d)
      return cleanString(value) === value;
  }
  return value.length < SHORTEST_SECRET || !mayHoldSecret(value);
}
