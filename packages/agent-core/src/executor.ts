import { setMaxListeners } from "node:events";
import { ABORT_GRACE_MS, AbortDeadline, onAbort } from "./abort-race.js";
import type { ToolCall, ToolResultMessage } from "./messages.js";
import {
  abortedBeforeStart,
  type CallScope,
  type FinishedCall,
  findTool,
  finishCall,
  type PreparedCall,
  prepareCall,
  runPreparedCall,
} from "./tool-call.js";
import { errorOutcome } from "./tool-outcome.js";

/** What a batch produced: result messages in the model's order, and whether the run should end. */
export interface BatchResult {
  results: ToolResultMessage[];
  /** True only when every result of a non-empty batch asked to terminate. */
  terminate: boolean;
}

/** The text every call of a reply cut by the token limit gets instead of running. */
export const LENGTH_STOP_MESSAGE =
  'Not run: your reply hit the output token limit (stopReason "length"), so its tool calls may be cut off. Send the call again; split large content over several smaller calls.';

/**
 * Runs the tool calls of one assistant message and emits their events. Must not throw.
 *
 * - A reply that stopped for `length` runs none of its calls: each gets an error result.
 * - The batch is sequential when the config says so or any of its tools is `sequential`.
 * - Parallel: calls are prepared one by one in the model's order (hooks may ask a person, and
 *   two prompts at once would be confusing), then run together; `tool_execution_end` comes in
 *   completion order.
 * - Result messages are emitted and returned in the model's order, whatever finished first,
 *   because providers pair results with calls by position as well as by id.
 * - Calls never reached because of abort get an explicit aborted result.
 */
export async function executeToolCalls(calls: ToolCall[], runScope: CallScope): Promise<BatchResult> {
  const batch = batchSignal(runScope.signal);
  const deadline =
    batch.signal === undefined
      ? undefined
      : new AbortDeadline(batch.signal, runScope.config.abortGraceMs ?? ABORT_GRACE_MS);
  const scope: CallScope = { ...runScope, signal: batch.signal, deadline };
  let finished: FinishedCall[];
  try {
    finished = await runBatch(calls, scope);
  } finally {
    deadline?.release();
    batch.release();
  }
  const results = finished.map(({ call, outcome }) => toResultMessage(call, outcome));
  for (const message of results) {
    scope.emit({ type: "message_start", message });
    scope.emit({ type: "message_end", message });
  }
  const terminate = finished.length > 0 && finished.every(({ outcome }) => outcome.terminate === true);
  return { results, terminate };
}

/**
 * The signal the calls of one batch get: aborted when the run's signal fires (through one shared
 * listener, see `onAbort`), and allowed any number of listeners. Each call (the executor's wait,
 * then the tool and the environment under it) listens to its signal while it runs; on the run's
 * own signal a message with more than ten parallel calls would set off Node's
 * MaxListenersExceededWarning, which exists to catch listeners that pile up on a long-lived
 * target. This one lives for one batch, so nothing can pile up on it.
 */
function batchSignal(run: AbortSignal | undefined): { signal: AbortSignal | undefined; release: () => void } {
  if (run === undefined) return { signal: undefined, release: () => {} };
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  if (run.aborted) {
    controller.abort(run.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const release = onAbort(run, () => controller.abort(run.reason));
  return { signal: controller.signal, release };
}

async function runBatch(calls: ToolCall[], scope: CallScope): Promise<FinishedCall[]> {
  let finished: FinishedCall[];
  if (scope.assistantMessage.stopReason === "length") {
    finished = calls.map((call) => finishCall(call, errorOutcome("length_stop", LENGTH_STOP_MESSAGE), scope));
  } else if (isSequential(calls, scope)) {
    finished = await runSequential(calls, scope);
  } else {
    finished = await runParallel(calls, scope);
  }
  return finished;
}

function isSequential(calls: ToolCall[], scope: CallScope): boolean {
  if (scope.config.toolExecution === "sequential") return true;
  const tools = scope.context.tools;
  if (!tools.some((tool) => tool.executionMode === "sequential")) return false;
  return calls.some((call) => findTool(tools, call.name)?.executionMode === "sequential");
}

async function runSequential(calls: ToolCall[], scope: CallScope): Promise<FinishedCall[]> {
  const finished: FinishedCall[] = [];
  for (const call of calls) {
    const pending = prepareCall(call, scope);
    const prepared = pending instanceof Promise ? await pending : pending;
    finished.push(await new Promise<FinishedCall>((done, failed) => settle(prepared, scope, done, failed)));
  }
  return finished;
}

/**
 * Prepares the calls one by one, then runs them together; resolves with every call finished, in
 * the model's order. The calls end through callbacks into one promise for the batch, not a
 * promise per call.
 */
async function runParallel(calls: ToolCall[], scope: CallScope): Promise<FinishedCall[]> {
  const prepared: PreparedCall[] = [];
  for (const call of calls) {
    // Awaited only when a hook made it a promise: a microtask per call adds up in a large batch.
    const pending = prepareCall(call, scope);
    const one = pending instanceof Promise ? await pending : pending;
    if (one.kind === "finished") finishCall(one.call, one.outcome, scope);
    prepared.push(one);
  }
  return new Promise((resolve, failed) => {
    const finished: FinishedCall[] = new Array(prepared.length);
    let running = prepared.length;
    const end = (index: number, one: FinishedCall) => {
      finished[index] = one;
      running -= 1;
      if (running === 0) resolve(finished);
    };
    if (running === 0) resolve(finished);
    prepared.forEach((one, index) => {
      if (one.kind === "finished") end(index, { call: one.call, outcome: one.outcome });
      else settle(one, scope, (done) => end(index, done), failed);
    });
  });
}

/** Runs a prepared call (or ends it, when it was finished or the run aborted); see `runPreparedCall`. */
function settle(
  prepared: PreparedCall,
  scope: CallScope,
  done: (finished: FinishedCall) => void,
  failed: (error: unknown) => void,
): void {
  if (prepared.kind === "finished") done(finishCall(prepared.call, prepared.outcome, scope));
  else if (scope.signal?.aborted) done(finishCall(prepared.call, abortedBeforeStart(), scope));
  else runPreparedCall(prepared, scope, done, failed);
}

function toResultMessage(call: ToolCall, outcome: FinishedCall["outcome"]): ToolResultMessage {
  const { content, details, isError, errorCode } = outcome;
  const timestamp = Date.now();
  // Two literals rather than a spread of `{ errorCode }`: no throwaway object per call, same field order.
  return isError && errorCode !== undefined
    ? {
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content,
        details,
        isError,
        errorCode,
        timestamp,
      }
    : { role: "toolResult", toolCallId: call.id, toolName: call.name, content, details, isError, timestamp };
}
