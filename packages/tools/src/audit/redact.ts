import type { AuditEvent, AuditSink } from "@tackle/agent-core";
import { mayHoldSecret, redactSecrets } from "../shell/redact.js";
import { stripControl } from "../shell/sanitize.js";

/** Sinks that already redact: wrapping one again would only cost time. */
const redacting = new WeakSet<AuditSink>();

/** Shorter strings cannot hold a secret shape `redactSecrets` knows (`KEY=abcd` is 8). */
const SHORTEST_SECRET = 8;

/** `JSON.stringify` replacer that cleans every string value (keys are the emitters' own names). */
function cleanStrings(_key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  const stripped = stripControl(value);
  return stripped.length < SHORTEST_SECRET ? stripped : redactSecrets(stripped);
}

/**
 * In JSON text, what a string holding a character `stripControl` removes looks like: JSON escapes
 * `\b`, `\f` and `\u00XX` (C0 controls, ESC), and the characters JSON leaves as they are (DEL,
 * C1 controls with CSI, bidi overrides and isolates). An escaped backslash followed by `b`, `f` or
 * `u` also matches: that only costs the slower, exact pass.
 */
const MAY_HOLD_CONTROL = /\\[bfu]|[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * The JSON text of `event` with every string passed through the same cleaning as model output:
 * escapes and control characters removed, known secret shapes replaced by `[REDACTED:<kind>]`.
 * No copy of the event (the JSONL sink's line). Most events hold nothing to clean: their plain
 * JSON text, checked in one scan for control characters and one for the secret shapes' hints, is
 * the answer; only the others take the pass that cleans each string.
 */
export function auditEventJson(event: AuditEvent): string {
  const plain = JSON.stringify(event);
  if (!MAY_HOLD_CONTROL.test(plain) && !mayHoldSecret(plain)) return plain;
  return JSON.stringify(event, cleanStrings);
}

/** A redacted copy of `event` (see {@link auditEventJson}). */
export function redactAuditEvent<T extends AuditEvent>(event: T): T {
  return JSON.parse(auditEventJson(event)) as T;
}

/**
 * Wraps a sink so no event reaches it with a secret in it (see {@link redactAuditEvent}).
 * `createToolContext` wraps the `audit` it is given; a sink that is already redacting is
 * returned as is.
 */
export function withAuditRedaction(sink: AuditSink): AuditSink {
  if (redacting.has(sink)) return sink;
  const wrapped: AuditSink = {
    append: (event) => sink.append(redactAuditEvent(event)),
    ...(sink.flush ? { flush: () => sink.flush?.() ?? Promise.resolve() } : {}),
    ...(sink.close ? { close: () => sink.close?.() ?? Promise.resolve() } : {}),
  };
  // Reads of the wrapped sink's extra members (e.g. a memory sink's `events`) still work.
  const proxy = new Proxy(sink, {
    get: (target, property, receiver) =>
      property in wrapped ? wrapped[property as keyof AuditSink] : Reflect.get(target, property, receiver),
  });
  redacting.add(proxy);
  return proxy;
}

/** Marks a sink that redacts by itself (the JSONL sink). */
export function markRedacting(sink: AuditSink): AuditSink {
  redacting.add(sink);
  return sink;
}
