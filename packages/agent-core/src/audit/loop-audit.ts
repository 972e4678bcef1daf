import type { AfterToolCallResult, BeforeToolCallResult } from "../hooks.js";
import type { AssistantMessage, ToolCall } from "../messages.js";
import type { ToolOutcome } from "../tool.js";
import { changedFields, recordCallEnd, startCallAudit, type ToolCallAuditOptions } from "./call-audit.js";
import { type AuditRecorder, NO_AUDIT } from "./recorder.js";

interface CallAuditState {
  audit: AuditRecorder;
  startedAt: number;
}

/** One record per call object: the loop starts it when the call is announced and ends it in `finishCall`. */
const states = new WeakMap<ToolCall, CallAuditState>();
/** Turn numbers per audit config: the n-th assistant message with tool calls is turn n. */
const turns = new WeakMap<ToolCallAuditOptions, { next: number; ids: WeakMap<AssistantMessage, string> }>();

function turnIdOf(options: ToolCallAuditOptions, message: AssistantMessage): string {
  if (options.turnId !== undefined) return options.turnId;
  let counter = turns.get(options);
  if (!counter) {
    counter = { next: 1, ids: new WeakMap() };
    turns.set(options, counter);
  }
  let id = counter.ids.get(message);
  if (id === undefined) {
    id = `turn-${counter.next++}`;
    counter.ids.set(message, id);
  }
  return id;
}

/** The recorder of a call the loop runs; the first use records its intent. */
export function loopCallAudit(
  options: ToolCallAuditOptions | undefined,
  call: ToolCall,
  message: AssistantMessage,
): AuditRecorder {
  if (options === undefined) return NO_AUDIT;
  let state = states.get(call);
  if (!state) {
    const audit = startCallAudit(options, {
      callId: call.id,
      tool: call.name,
      args: call.arguments,
      source: "loop",
      turnId: turnIdOf(options, message),
    });
    state = { audit, startedAt: Date.now() };
    states.set(call, state);
  }
  return state.audit;
}

/** Records the end of a call the loop ran (or refused). */
export function endLoopCallAudit(
  options: ToolCallAuditOptions | undefined,
  call: ToolCall,
  message: AssistantMessage,
  outcome: ToolOutcome,
): void {
  if (options === undefined) return;
  const audit = loopCallAudit(options, call, message);
  recordCallEnd(audit, outcome, states.get(call)?.startedAt ?? Date.now(), "loop");
}

/** Records what `beforeToolCall` decided: blocked, arguments rewritten (which fields), or passed. */
export function recordBeforeHook(
  audit: AuditRecorder,
  args: Record<string, unknown>,
  decision: BeforeToolCallResult | undefined | "threw",
  reason?: string,
): void {
  if (!audit.enabled) return;
  if (decision === "threw") {
    audit.record({
      kind: "decision",
      source: "hook",
      gate: "hook",
      verdict: "deny",
      code: "hook_failed",
      rules: ["beforeToolCall"],
      ...(reason ? { reason } : {}),
    });
    return;
  }
  if (decision?.block === true) {
    audit.record({
      kind: "decision",
      source: "hook",
      gate: "hook",
      verdict: "deny",
      code: "blocked",
      rules: ["beforeToolCall"],
      ...(decision.reason ? { reason: decision.reason } : {}),
    });
    return;
  }
  const changed = decision?.args !== undefined ? changedFields(args, decision.args) : [];
  audit.record({
    kind: "decision",
    source: "hook",
    gate: "hook",
    verdict: changed.length > 0 ? "changed" : "allow",
    rules: ["beforeToolCall"],
    ...(changed.length > 0 ? { changed } : {}),
  });
}

/** Records which result fields `afterToolCall` replaced. */
export function recordAfterHook(
  audit: AuditRecorder,
  patch: AfterToolCallResult | undefined | "threw",
): void {
  if (!audit.enabled) return;
  if (patch === "threw") {
    audit.record({
      kind: "decision",
      source: "hook",
      gate: "hook",
      verdict: "deny",
      code: "hook_failed",
      rules: ["afterToolCall"],
      reason: "afterToolCall failed; the result was discarded",
    });
    return;
  }
  const changed = patch
    ? (Object.keys(patch) as (keyof AfterToolCallResult)[])
        .filter((key) => patch[key] !== undefined)
        .map((key) => `result.${key}`)
    : [];
  audit.record({
    kind: "decision",
    source: "hook",
    gate: "hook",
    verdict: changed.length > 0 ? "changed" : "allow",
    rules: ["afterToolCall"],
    ...(changed.length > 0 ? { changed } : {}),
  });
}
