import { type AfterToolCallResult, type BeforeToolCallResult, changedFields } from "@tackle/agent-core";
import type { ExtensionContext } from "./context.js";
import type { ExtensionHandlers, ToolCallEvent, ToolResultEvent } from "./extension.js";

/** A handler with the extension that registered it. */
export interface Registered<THandler> {
  extension: string;
  handler: THandler;
}

/** Reports an isolated handler error (the runner records and logs it). */
export type ReportError = (extension: string, error: unknown) => void;

/**
 * Runs `tool_call` handlers in load order. Each sees the input as rewritten by the ones before;
 * the first block wins. A handler that throws blocks the call (fail closed): a permission check
 * that crashed must not wave a destructive call through. Must not throw.
 */
export async function runToolCallChain(
  handlers: readonly Registered<ExtensionHandlers["tool_call"]>[],
  event: ToolCallEvent,
  ctx: ExtensionContext,
  report: ReportError,
): Promise<BeforeToolCallResult | undefined> {
  let input = event.input;
  let rewritten = false;
  const audit = ctx.call.audit;
  for (const { extension, handler } of handlers) {
    let decision: Awaited<ReturnType<typeof handler>>;
    try {
      decision = await handler({ ...event, input }, ctx);
    } catch (error) {
      report(extension, error);
      audit.record({
        kind: "decision",
        source: "hook",
        gate: "hook",
        verdict: "deny",
        rules: [extension],
        code: "hook_failed",
        reason: messageOf(error),
      });
      return {
        block: true,
        reason: `Blocked: the ${extension} extension failed while checking this call (${messageOf(error)}). Tell the user; do not retry the same call.`,
      };
    }
    if (decision?.block === true) {
      audit.record({
        kind: "decision",
        source: "hook",
        gate: "hook",
        verdict: "deny",
        rules: [extension],
        code: "blocked",
        ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
      });
      return {
        block: true,
        reason:
          decision.reason ??
          `Blocked by the ${extension} extension. Do not retry the same call; ask the user how to proceed.`,
      };
    }
    if (decision?.input !== undefined) {
      if (audit.enabled) {
        const changed = changedFields(input, decision.input);
        audit.record({
          kind: "decision",
          source: "hook",
          gate: "hook",
          verdict: "changed",
          rules: [extension],
          changed,
        });
      }
      input = decision.input;
      rewritten = true;
    }
  }
  return rewritten ? { args: input } : undefined;
}

/**
 * Runs `tool_result` handlers in load order as middleware: each sees the latest result and may
 * patch content, details, isError or errorCode. A handler that throws is reported and skipped (fail open):
 * a broken formatter must not cost the model a result it already paid for. Must not throw.
 */
export async function runToolResultChain(
  handlers: readonly Registered<ExtensionHandlers["tool_result"]>[],
  event: ToolResultEvent,
  ctx: ExtensionContext,
  report: ReportError,
): Promise<AfterToolCallResult | undefined> {
  let current = event;
  let patched = false;
  const audit = ctx.call.audit;
  for (const { extension, handler } of handlers) {
    let patch: Awaited<ReturnType<typeof handler>>;
    try {
      patch = await handler(current, ctx);
    } catch (error) {
      report(extension, error);
      continue;
    }
    if (!patch) continue;
    if (audit.enabled) {
      const changed = (["content", "details", "isError"] as const)
        .filter((key) => patch[key] !== undefined)
        .map((key) => `result.${key}`);
      audit.record({
        kind: "decision",
        source: "hook",
        gate: "hook",
        verdict: "changed",
        rules: [extension],
        changed,
      });
    }
    current = { ...current };
    if (patch.content !== undefined) current.content = patch.content;
    if (patch.details !== undefined) current.details = patch.details;
    if (patch.isError !== undefined) current.isError = patch.isError;
    if (patch.errorCode !== undefined) current.errorCode = patch.errorCode;
    // The next handler sees the code the loop will record (see patchOutcome in agent-core).
    if (!current.isError) delete current.errorCode;
    else current.errorCode ??= "blocked";
    patched = true;
  }
  if (!patched) return undefined;
  const result: AfterToolCallResult = {
    content: current.content,
    details: current.details,
    isError: current.isError,
  };
  if (current.errorCode !== undefined) result.errorCode = current.errorCode;
  return result;
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
