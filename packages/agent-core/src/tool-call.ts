import { ABORT_GRACE_MS, type AbortDeadline, promiseOf, waitUnlessAborted } from "./abort-race.js";
import { reasonOf } from "./argument-snapshot.js";
import { endLoopCallAudit, loopCallAudit, recordAfterHook, recordBeforeHook } from "./audit/loop-audit.js";
import type { AuditRecorder } from "./audit/recorder.js";
import type { AgentEvent } from "./events.js";
import type { AfterToolCallResult, ToolCallHookContext } from "./hooks.js";
import { type ExecuteToolOptions, executeBatchedTool } from "./invoke-tool.js";
import type { AgentLoopConfig } from "./loop-config.js";
import type { AssistantMessage, ToolCall } from "./messages.js";
import type { ModelContext } from "./model.js";
import { prepareToolArguments } from "./prepare-arguments.js";
import { quoteInput } from "./quote-input.js";
import type { AnyAgentTool, ToolOutcome } from "./tool.js";
import { errorOutcome } from "./tool-outcome.js";

/** The part of the loop config that decides how calls run (all a caller outside the loop must give). */
export type ToolCallConfig = Pick<
  AgentLoopConfig,
  "toolExecution" | "beforeToolCall" | "afterToolCall" | "abortGraceMs" | "audit"
>;

/** Everything the phases of one call share. */
export interface CallScope {
  assistantMessage: AssistantMessage;
  context: ModelContext;
  config: ToolCallConfig;
  signal: AbortSignal | undefined;
  /**
   * The batch's shared wait for its tools after an abort (made by `executeToolCalls` from
   * `signal` and `config.abortGraceMs`); absent, each call waits on its own.
   */
  deadline?: AbortDeadline | undefined;
  emit: (event: AgentEvent) => void;
}

/** A call after preparation: either ready to run, or already finished (blocked, invalid, unknown, aborted). */
export type PreparedCall =
  | { kind: "ready"; call: ToolCall; hook: ToolCallHookContext; terminate: boolean | undefined }
  | { kind: "finished"; call: ToolCall; outcome: ToolOutcome };

/** The final outcome of one call, with whether it asks to end the run. */
export interface FinishedCall {
  call: ToolCall;
  outcome: ToolOutcome;
}

/** Outcome of a call the run never reached because it was aborted. */
export function abortedBeforeStart(): ToolOutcome {
  return errorOutcome(
    "aborted",
    "Not run: the run was aborted before this call started. Call it again if it is still needed.",
  );
}

/**
 * Phase 1: find the tool, validate arguments, run `beforeToolCall`. Must not throw. Replaced
 * arguments from the hook go through validation again: a hook is as fallible as a model. Without
 * a hook the answer comes synchronously: a message of 1000 calls need not wait a microtask per
 * call to be prepared. Nothing is announced yet: `tool_execution_start` comes only for a call
 * that runs (see `runPreparedCall`).
 */
export function prepareCall(call: ToolCall, scope: CallScope): PreparedCall | Promise<PreparedCall> {
  const audit = loopCallAudit(scope.config.audit, call, scope.assistantMessage);
  if (scope.signal?.aborted) return finished(call, abortedBeforeStart());
  const tool = findTool(scope.context.tools, call.name);
  if (tool === undefined) return finished(call, unknownTool(call.name, scope.context.tools));
  const prepared = prepareToolArguments(tool, call.arguments, audit);
  if (!prepared.ok) return finished(call, prepared.outcome);
  const hook: ToolCallHookContext = {
    toolCall: call,
    tool,
    args: prepared.args,
    assistantMessage: scope.assistantMessage,
    context: scope.context,
  };
  if (scope.config.beforeToolCall === undefined) return { kind: "ready", call, hook, terminate: undefined };
  return askBeforeToolCall(call, hook, scope.config.beforeToolCall, audit, scope);
}

/** The `beforeToolCall` part of {@link prepareCall}. Must not throw. */
async function askBeforeToolCall(
  call: ToolCall,
  hook: ToolCallHookContext,
  beforeToolCall: NonNullable<ToolCallConfig["beforeToolCall"]>,
  audit: AuditRecorder,
  scope: CallScope,
): Promise<PreparedCall> {
  const { tool } = hook;
  let decision: Awaited<ReturnType<typeof beforeToolCall>>;
  try {
    // Not waited for after an abort: a hook asking a person must not hold the run, and the call
    // will not run whatever it decides.
    const raced = await waitUnlessAborted(
      promiseOf(() => beforeToolCall(hook, scope.signal)),
      scope.signal,
      0,
    );
    if (!raced.settled) return finished(call, abortedBeforeStart());
    decision = raced.value;
  } catch (error) {
    recordBeforeHook(audit, hook.args, "threw", reasonOf(error));
    return finished(
      call,
      errorOutcome(
        "hook_failed",
        `Not run: the beforeToolCall hook failed (${reasonOf(error)}). The tool did not run.`,
      ),
    );
  }
  recordBeforeHook(audit, hook.args, decision ?? undefined);
  if (decision?.block === true) {
    const outcome = errorOutcome(
      "blocked",
      decision.reason ??
        `Not run: ${call.name} was blocked by the host. Do not retry the same call; ask the user how to proceed.`,
    );
    if (decision.terminate === true) outcome.terminate = true;
    return finished(call, outcome);
  }
  if (decision?.args !== undefined) {
    const again = prepareToolArguments(tool, decision.args);
    if (!again.ok) {
      // The same code as a model's invalid arguments: the call did not run because of its input.
      const text = `Not run: arguments set by the beforeToolCall hook are invalid.\n${textOf(again.outcome)}`;
      return finished(
        call,
        errorOutcome(again.outcome.errorCode ?? "invalid_arguments", text, again.outcome.details),
      );
    }
    hook.args = again.args;
  }
  return { kind: "ready", call, hook, terminate: decision?.terminate };
}

/**
 * Phases 2 and 3: execute, then `afterToolCall` (field-wise override), then `tool_execution_end`;
 * `done` gets the finished call. In callback form, so a call costs no chain of promises (see
 * `executeBatchedTool`). `failed` gets an error only when something that must not throw did (an
 * `emit` given to `executeToolCalls` by a host); neither callback may throw.
 */
export function runPreparedCall(
  ready: Extract<PreparedCall, { kind: "ready" }>,
  scope: CallScope,
  done: (finished: FinishedCall) => void,
  failed: (error: unknown) => void,
): void {
  const { call, hook } = ready;
  // Announced now that it runs: a call refused before (by a hook, its arguments, an abort) never
  // shows as started.
  scope.emit({
    type: "tool_execution_start",
    toolCallId: call.id,
    toolName: call.name,
    args: call.arguments,
  });
  const onUpdate = (partialResult: { content: ToolOutcome["content"]; details: unknown }) =>
    scope.emit({
      type: "tool_execution_update",
      toolCallId: call.id,
      toolName: call.name,
      args: hook.args,
      partialResult,
    });
  const { signal, config } = scope;
  const options: ExecuteToolOptions = { onUpdate, signal, abortGraceMs: config.abortGraceMs };
  executeBatchedTool(hook.tool, call.id, hook.args, options, scope.deadline, (executed) => {
    try {
      const outcome =
        ready.terminate === true && executed.terminate === undefined
          ? { ...executed, terminate: true }
          : executed;
      const afterToolCall = config.afterToolCall;
      if (afterToolCall === undefined) done(finishCall(call, outcome, scope));
      else askAfterToolCall(ready, outcome, afterToolCall, scope).then(done, failed);
    } catch (error) {
      failed(error);
    }
  });
}

/** The `afterToolCall` part of {@link runPreparedCall}. */
async function askAfterToolCall(
  ready: Extract<PreparedCall, { kind: "ready" }>,
  executed: ToolOutcome,
  afterToolCall: NonNullable<ToolCallConfig["afterToolCall"]>,
  scope: CallScope,
): Promise<FinishedCall> {
  const { call, hook } = ready;
  const { signal, config } = scope;
  let outcome = executed;
  try {
    const running = promiseOf(() => afterToolCall({ ...hook, result: outcome }, signal));
    const raced = await waitUnlessAborted(running, signal, config.abortGraceMs ?? ABORT_GRACE_MS);
    // The hook may be the one that redacts or checks results: never pass on an unchecked one.
    if (!raced.settled) return finishCall(call, afterHookCutOff(), scope);
    const patch = raced.value;
    recordAfterHook(loopCallAudit(config.audit, call, scope.assistantMessage), patch ?? undefined);
    if (patch) outcome = patchOutcome(outcome, patch);
  } catch (error) {
    recordAfterHook(loopCallAudit(config.audit, call, scope.assistantMessage), "threw");
    outcome = errorOutcome(
      "hook_failed",
      `The tool ran, but the afterToolCall hook failed (${reasonOf(error)}), so its result was discarded. Check the tool's effect before retrying.`,
    );
  }
  return finishCall(call, outcome, scope);
}

/**
 * Applies an `afterToolCall` patch field by field. The code follows `isError`: a success has
 * none, and an error the hook made without naming a code is `blocked` (the host refused it).
 */
export function patchOutcome(outcome: ToolOutcome, patch: AfterToolCallResult): ToolOutcome {
  const patched: ToolOutcome = { ...outcome };
  if (patch.content !== undefined) patched.content = patch.content;
  if (patch.details !== undefined) patched.details = patch.details;
  if (patch.isError !== undefined) patched.isError = patch.isError;
  if (patch.terminate !== undefined) patched.terminate = patch.terminate;
  if (!patched.isError) delete patched.errorCode;
  else patched.errorCode = patch.errorCode ?? patched.errorCode ?? "blocked";
  return patched;
}

/** The tool named `name`, if the context has one. */
export function findTool(tools: AnyAgentTool[], name: string): AnyAgentTool | undefined {
  for (const tool of tools) if (tool.name === name) return tool;
  return undefined;
}

function finished(call: ToolCall, outcome: ToolOutcome): PreparedCall {
  return { kind: "finished", call, outcome };
}

/** Emits `tool_execution_end` for a call and returns it finished. */
export function finishCall(call: ToolCall, outcome: ToolOutcome, scope: CallScope): FinishedCall {
  endLoopCallAudit(scope.config.audit, call, scope.assistantMessage, outcome);
  const event: Extract<AgentEvent, { type: "tool_execution_end" }> = {
    type: "tool_execution_end",
    toolCallId: call.id,
    toolName: call.name,
    result: outcome,
    isError: outcome.isError,
  };
  if (outcome.isError && outcome.errorCode !== undefined) event.errorCode = outcome.errorCode;
  scope.emit(event);
  return { call, outcome };
}

function afterHookCutOff(): ToolOutcome {
  return errorOutcome(
    "aborted",
    "The tool ran, but the run was aborted before the afterToolCall hook finished, so its result was discarded. Check the tool's effect before retrying.",
  );
}

function unknownTool(name: string, tools: AnyAgentTool[]): ToolOutcome {
  const names = tools.map((tool) => tool.name).join(", ");
  return errorOutcome(
    "tool_not_found",
    `Unknown tool ${quoteInput(String(name))}. Available tools: ${names || "none"}. Call one of them by its exact name.`,
  );
}

function textOf(outcome: ToolOutcome): string {
  return outcome.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}
