import type {
  AuditDecision,
  AuditDiagnostics,
  AuditEnd,
  AuditEvent,
  AuditIntent,
  AuditOutput,
  AuditSideEffect,
  AuditSpawn,
} from "./events.js";

/** One call's evidence, gathered from its events. */
export interface AuditCallRecord {
  callId: string;
  sessionId?: string;
  /** Tool name (from the intent). */
  tool?: string;
  intent?: AuditIntent;
  decisions: AuditDecision[];
  spawn?: AuditSpawn;
  /** The output events merged field by field (a later event, e.g. a hash computed after the end, adds to it). */
  output?: Omit<AuditOutput, "source">;
  /** How the call ended (`scope: "call"`); absent when the record stops before the end. */
  end?: AuditEnd;
  /** How its process ended (shell tools; for a background job, when the job ends). */
  processEnd?: AuditEnd;
  sideEffects: AuditSideEffect[];
  /** What the syntax check and language servers said about the files the call changed. */
  diagnostics: AuditDiagnostics[];
  /** False when no `end` of the call was recorded: the host stopped (or is still running it). */
  ended: boolean;
  firstAt: string;
  lastAt: string;
  events: AuditEvent[];
}

/**
 * Groups events into one record per call, in the order the calls started. Events of a call id
 * join its latest record; an intent for a call id whose record already ended starts a new one
 * (call ids repeat across sessions, e.g. MCP request numbers).
 */
export function assembleAuditRecords(events: Iterable<AuditEvent>): AuditCallRecord[] {
  const records: AuditCallRecord[] = [];
  const latest = new Map<string, AuditCallRecord>();
  for (const event of events) {
    let record = latest.get(event.callId);
    if (!record || (event.kind === "intent" && (record.intent !== undefined || record.ended))) {
      record = {
        callId: event.callId,
        decisions: [],
        sideEffects: [],
        diagnostics: [],
        ended: false,
        firstAt: event.at,
        lastAt: event.at,
        events: [],
      };
      records.push(record);
      latest.set(event.callId, record);
    }
    add(record, event);
  }
  return records;
}

function add(record: AuditCallRecord, event: AuditEvent): void {
  record.events.push(event);
  record.lastAt = event.at;
  if (event.sessionId !== undefined) record.sessionId ??= event.sessionId;
  switch (event.kind) {
    case "intent":
      record.intent = event;
      record.tool = event.tool;
      break;
    case "decision":
      record.decisions.push(event);
      break;
    case "spawn":
      record.spawn = { ...record.spawn, ...event };
      break;
    case "output": {
      const { source: _source, ...fields } = event;
      record.output = { ...record.output, ...fields };
      break;
    }
    case "end":
      if (event.scope === "call") {
        record.end = event;
        record.ended = true;
        // The result size is output evidence, recorded with the end (see AuditEnd.result).
        if (event.result !== undefined) {
          const { v, callId, at } = event;
          record.output = { v, kind: "output", callId, at, ...record.output, result: event.result };
        }
      } else {
        record.processEnd = event;
      }
      break;
    case "side-effect":
      record.sideEffects.push(event);
      break;
    case "diagnostics":
      record.diagnostics.push(event);
      break;
  }
}
