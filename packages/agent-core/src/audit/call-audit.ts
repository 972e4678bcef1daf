import type { ToolOutcome } from "../tool.js";
import type { ArgumentProblem } from "../validation-message.js";
import type { AuditEnd, AuditEventInput, RequestedBy } from "./events.js";
import { type AuditRecorder, createAuditRecorder, summarizeArguments } from "./recorder.js";
import type { AuditSink } from "./sink.js";

/**
 * How a host audits the calls it makes (`invokeTool`) or its agent loop makes (`audit` in the
 * loop config). Give the same sink as the tool context, so the call's own events and the tool's
 * meet in one place.
 */
export interface ToolCallAuditOptions {
  sink: AuditSink;
  /** Who asked: `user` for a person running a tool, `model` (default) for a model's call. */
  requestedBy?: RequestedBy;
  sessionId?: string;
  /** Turn of the conversation (the loop numbers its turns when this is absent). */
  turnId?: string;
}

/** Starts the record of a call: its recorder, with the intent already recorded. */
export function startCallAudit(
  options: ToolCallAuditOptions | undefined,
  call: { callId: string; tool: string; args: unknown; source: string; turnId?: string },
): AuditRecorder {
  const audit = createAuditRecorder(options?.sink, { callId: call.callId, sessionId: options?.sessionId });
  if (!audit.enabled) return audit;
  const intent: AuditEventInput = {
    kind: "intent",
    source: call.source,
    tool: call.tool,
    args: summarizeArguments(call.args),
    requestedBy: options?.requestedBy ?? "model",
  };
  const turnId = call.turnId ?? options?.turnId;
  if (turnId !== undefined) intent.turnId = turnId;
  audit.record(intent);
  return audit;
}

/** Records the validation gate: passed (and whether arguments were repaired), or refused with its problems. */
export function recordValidation(
  audit: AuditRecorder,
  result: { ok: true; repaired: string[] } | { ok: false; code: string; problems: ArgumentProblem[] },
  source = "invoke",
): void {
  if (!audit.enabled) return;
  if (!result.ok) {
    audit.record({
      kind: "decision",
      source,
      gate: "validation",
      verdict: "deny",
      code: result.code,
      reason:
        result.problems.map((p) => `${p.field}: expected ${p.expected}, got ${p.received}`).join("; ") ||
        result.code,
    });
    return;
  }
  if (result.repaired.length === 0) {
    audit.record({ kind: "decision", source, gate: "validation", verdict: "allow" });
    return;
  }
  audit.record({ kind: "decision", source, gate: "repair", verdict: "changed", changed: result.repaired });
}

/**
 * Top-level argument fields whose value differs between `before` and `after` (added, removed or
 * changed).
 *
 * @internal Shared with `@tackle/extensions`; may change without notice.
 */
export function changedFields(before: unknown, after: unknown): string[] {
  if (!isRecord(before)) return isRecord(after) ? ["(arguments)"] : [];
  const a = before;
  const b = isRecord(after) ? after : {};
  if (sameValues(a, b)) return [];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => !sameJson(a[key], b[key])).sort();
}

/** The same keys with identical values (the usual call: nothing repaired, no JSON compared). */
function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(b);
  if (keys.length !== Object.keys(a).length) return false;
  for (const key of keys) if (!Object.hasOwn(a, key) || a[key] !== b[key]) return false;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** The end status of a call, from its outcome's error code (never its text). */
export function outcomeStatus(outcome: ToolOutcome): AuditEnd["status"] {
  if (!outcome.isError) return "completed";
  if ((outcome.details as { stillRunning?: unknown } | undefined)?.stillRunning === true) return "unknown";
  if (outcome.errorCode === "aborted") return "cancelled";
  if (outcome.errorCode === "timeout") return "timed-out";
  return "failed";
}

/**
 * Records how the call ended (`end`, scope `call`) with the size of what the model got
 * (`result`): one event, written with the end.
 */
export function recordCallEnd(
  audit: AuditRecorder,
  outcome: ToolOutcome,
  startedAt: number,
  source: string,
): void {
  if (!audit.enabled) return;
  let textBytes = 0;
  let images = 0;
  for (const block of outcome.content) {
    if (block.type === "text") textBytes += Buffer.byteLength(block.text, "utf8");
    else images++;
  }
  const end: AuditEventInput = {
    kind: "end",
    source,
    scope: "call",
    status: outcomeStatus(outcome),
    durationMs: Date.now() - startedAt,
    isError: outcome.isError,
    result: { blocks: outcome.content.length, textBytes, images },
  };
  if (outcome.errorCode !== undefined) end.errorCode = outcome.errorCode;
  audit.record(end);
}
