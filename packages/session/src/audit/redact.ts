import type { AuditEvent, AuditSink } from "@tackle/agent-core";
import { auditEventJson } from "./event-json.js";

/** Sinks that already redact: wrapping one again would only cost time. */
const redacting = new WeakSet<AuditSink>();

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
  // The wrapped sink is the prototype: its other members (a memory sink's `events`) still read.
  const wrapped: AuditSink = Object.create(sink);
  wrapped.append = (event) => sink.append(redactAuditEvent(event));
  if (sink.flush) wrapped.flush = () => sink.flush?.() ?? Promise.resolve();
  if (sink.close) wrapped.close = () => sink.close?.() ?? Promise.resolve();
  redacting.add(wrapped);
  return wrapped;
}

/** Marks a sink that redacts by itself (the JSONL sink). */
export function markRedacting(sink: AuditSink): AuditSink {
  redacting.add(sink);
  return sink;
}
