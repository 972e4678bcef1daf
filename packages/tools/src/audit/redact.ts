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
