import type { AuditEvent } from "./events.js";

/**
 * Where audit events go. `append` is synchronous and must not throw: it runs inside every tool
 * call, and a sink that waited or failed would slow or break the calls it records (recorders
 * still catch a throwing sink and drop the event). The event is the sink's from `append` on:
 * emitters pass a fresh object and never change it, so a sink may keep it and read it later. A
 * file sink has a call's record with the OS when its end is appended (the JSONL sink: every
 * event still pending, in one write), so a host killed after a call returned loses none of it.
 *
 * Give the sink through the tool context (`createToolContext({ audit })`), so local, SSH and
 * Docker sessions record the same way and the records stay with the host.
 */
export interface AuditSink {
  append(event: AuditEvent): void;
  /** Waits until appended events are stored (a no-op for sinks that store on append). */
  flush?(): Promise<void>;
  /** Stores what is left and releases the sink; `append` after `close` drops events. */
  close?(): Promise<void>;
}

/** An {@link AuditSink} that keeps events in memory (tests, UIs that show the trail live). */
export interface MemoryAuditSink extends AuditSink {
  /** Every event, in append order. */
  readonly events: readonly AuditEvent[];
  /** The events of one call, in append order. */
  forCall(callId: string): AuditEvent[];
}

/**
 * Creates an in-memory sink. It stores events as given: wrap it with the redacting sink of
 * `@tackle/tools` (or pass it to `createToolContext`, which does) when events may carry secrets.
 *
 * @example
 * ```ts
 * const audit = createMemoryAuditSink();
 * await invokeTool(tool, args, { audit: { sink: audit, requestedBy: "user" } });
 * console.log(audit.forCall(id));
 * ```
 */
export function createMemoryAuditSink(): MemoryAuditSink {
  const events: AuditEvent[] = [];
  return {
    events,
    append(event) {
      events.push(event);
    },
    forCall: (callId) => events.filter((event) => event.callId === callId),
  };
}
