import { AUDIT_EVENT_VERSION, type AuditEvent, type AuditEventInput } from "./events.js";
import type { AuditSink } from "./sink.js";

/** Records the events of one call into a sink, filling in the call id, session and time. */
export interface AuditRecorder {
  readonly callId: string;
  /** False for the recorder of a call nobody audits: emitters skip work only the audit needs. */
  readonly enabled: boolean;
  /**
   * Records one event: fills in `v`, `callId`, `sessionId` and `at` on the object given (pass a
   * fresh one; it is the sink's afterwards). Never throws: a failing sink drops the event.
   */
  record(event: AuditEventInput): void;
}

/** The recorder of a call that is not audited. */
export const NO_AUDIT: AuditRecorder = Object.freeze({
  callId: "",
  enabled: false,
  record() {},
});

/**
 * A recorder for the call `callId`, or {@link NO_AUDIT} when there is no sink. Cheap: emitters
 * make one per call where they need it; events meet again in the sink by call id.
 */
export function createAuditRecorder(
  sink: AuditSink | undefined,
  call: { callId: string; sessionId?: string | undefined },
): AuditRecorder {
  if (sink === undefined) return NO_AUDIT;
  const { callId, sessionId } = call;
  return {
    callId,
    enabled: true,
    record(event) {
      // The emitter's fresh object is completed in place: a copy per event (object spread) costs
      // more than everything else the recorder does.
      const full = event as AuditEvent;
      full.v = AUDIT_EVENT_VERSION;
      full.callId = callId;
      if (sessionId !== undefined) full.sessionId = sessionId;
      full.at = auditTime();
      try {
        sink.append(full);
      } catch {
        // The audit must never break the call it records (see AuditSink).
      }
    },
  };
}

let lastMs = Number.NaN;
let lastIso = "";

/**
 * Now as an ISO 8601 string (ms). Events of the same millisecond share one string: a call
 * records several events within a millisecond, and a `Date` plus `toISOString` per event is a
 * good part of what recording costs.
 */
export function auditTime(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

/**
 * Longest command a spawn event keeps (characters): a command is the one argument a reader needs
 * whole, so it gets far more room than the intent's summary; past this it is cut and its length
 * recorded (a generated script of megabytes would otherwise fill the trail).
 */
export const AUDIT_COMMAND_CHARS = 16_384;

/** Longest string kept whole in an argument summary; longer ones are cut and their length named. */
export const AUDIT_STRING_CHARS = 160;
/** Longest argument summary. */
export const AUDIT_SUMMARY_CHARS = 600;

/**
 * A short, one-line JSON summary of a call's arguments for the intent record: strings over
 * {@link AUDIT_STRING_CHARS} are cut (with their full length), the whole over
 * {@link AUDIT_SUMMARY_CHARS}. Secrets are not removed here: the sink redacts every event.
 */
export function summarizeArguments(args: unknown): string {
  let text: string;
  try {
    // A replacer call per value costs more than the rest of the summary: only arguments that
    // may hold a long string take it.
    text =
      (mayHoldLongString(args, 0) ? JSON.stringify(args, cutLongString) : JSON.stringify(args)) ??
      "undefined";
  } catch {
    text = String(args);
  }
  return text.length > AUDIT_SUMMARY_CHARS ? `${text.slice(0, AUDIT_SUMMARY_CHARS)}… (cut)` : text;
}

function cutLongString(_key: string, value: unknown): unknown {
  return typeof value === "string" && value.length > AUDIT_STRING_CHARS
    ? `${value.slice(0, AUDIT_STRING_CHARS)}… (${value.length} chars)`
    : value;
}

/**
 * False when `value` is plain data without a string over {@link AUDIT_STRING_CHARS}: its JSON
 * is then the summary's as it is. Anything else (a long string, a `toJSON`, a class instance,
 * deep nesting) is left to the replacer.
 */
function mayHoldLongString(value: unknown, depth: number): boolean {
  if (typeof value === "string") return value.length > AUDIT_STRING_CHARS;
  if (typeof value !== "object" || value === null) return false;
  if (depth > 8) return true;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return true;
    for (const item of value) if (mayHoldLongString(item, depth + 1)) return true;
    return false;
  }
  if (
    (proto !== Object.prototype && proto !== null) ||
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  )
    return true;
  for (const key in value)
    if (mayHoldLongString((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}
