import {
  ABORT_GRACE_MS,
  type AbortDeadline,
  type AbortRaced,
  GAVE_UP,
  waitUnlessAborted,
} from "./abort-race.js";
import { reasonOf } from "./argument-snapshot.js";
import { recordCallEnd, startCallAudit, type ToolCallAuditOptions } from "./audit/call-audit.js";
import { prepareToolArguments, safeName } from "./prepare-arguments.js";
import type {
  AgentToolResult,
  AgentToolUpdateCallback,
  AnyAgentTool,
  InvokeToolOutcome,
  ToolArguments,
  ToolDetails,
  ToolErrorCode,
  ToolOutcome,
} from "./tool.js";
import { abortedOutcome, errorOutcome, resultOutcome, toolFailureOutcome } from "./tool-outcome.js";

/** Options of {@link invokeTool}. */
export interface InvokeToolOptions {
  /** Aborts the tool; an aborted call returns an outcome with `errorCode: "aborted"`. */
  signal?: AbortSignal | undefined;
  /** Receives partial results while the tool runs. A throwing listener is ignored. */
  onUpdate?: AgentToolUpdateCallback | undefined;
  /** Id handed to `execute`; defaults to a fresh one. */
  toolCallId?: string;
  /**
   * How long to keep waiting for the tool after `signal` fires (ms, default
   * {@link ABORT_GRACE_MS}). A tool that stops in time reports its own result; one that does not
   * gets an `aborted` outcome saying it may still be running. `Infinity` waits however long.
   */
  abortGraceMs?: number | undefined;
  /**
   * Records the call in an audit trail (intent, validation, end); give the tool context's sink so
   * the tool's own events join the same record. Absent: nothing is recorded.
   */
  audit?: ToolCallAuditOptions;
}

/** Options of {@link executeTool}: those of {@link invokeTool} but the call id. */
export type ExecuteToolOptions = Omit<InvokeToolOptions, "toolCallId">;

/**
 * Runs one tool call the way every caller should (executor, CLI, MCP server): prepare ->
 * normalise -> validate -> execute -> map errors. Never throws or rejects.
 *
 * Typed from the tool: arguments the caller writes are checked against the tool's schema
 * (raw input typed `unknown` is accepted and checked at run time), a successful outcome's
 * `details` has the tool's details type, and a failure's `errorCode` is a core code or one the
 * tool declares (`ToolErrorCode<typeof tool>`). A `ToolError` whose code is neither is the tool
 * author's bug: it is reported as `execution_failed` with the tool's message, and
 * `details.undeclaredCode` names the code (see `AgentTool.errorCodes`).
 *
 * @example
 * ```ts
 * const outcome = await invokeTool(readTool, { path: "a.ts", limit: 20 }, { signal });
 * if (outcome.isError) console.error(outcome.errorCode, outcome.content);
 * else console.log(outcome.details); // the read tool's details
 * const fromModel: unknown = JSON.parse(call.arguments);
 * await invokeTool(readTool, fromModel); // raw input: validated when it runs
 * ```
 */
export async function invokeTool<TTool extends AnyAgentTool, TArgs = unknown>(
  tool: TTool,
  rawArgs: ToolArguments<TTool, TArgs>,
  options: InvokeToolOptions = {},
): Promise<InvokeToolOutcome<ToolDetails<TTool>, ToolErrorCode<TTool>>> {
  type Outcome = InvokeToolOutcome<ToolDetails<TTool>, ToolErrorCode<TTool>>;
  try {
    const toolCallId = options.toolCallId ?? newToolCallId();
    if (options.audit === undefined) {
      const prepared = prepareToolArguments(tool, rawArgs);
      if (!prepared.ok) return prepared.outcome as Outcome;
      // executeTool sets errorCode on every failure and returns the tool's own details on success.
      return (await executeTool(tool, toolCallId, prepared.args, options)) as Outcome;
    }
    const startedAt = Date.now();
    const audit = startCallAudit(options.audit, {
      callId: toolCallId,
      tool: tool.name,
      args: rawArgs,
      source: "invoke",
    });
    const prepared = prepareToolArguments(tool, rawArgs, audit);
    const outcome = prepared.ok
      ? await executeTool(tool, toolCallId, prepared.args, options)
      : prepared.outcome;
    recordCallEnd(audit, outcome, startedAt, "invoke");
    return outcome as Outcome;
  } catch (error) {
    // Both halves promise not to throw; this keeps the promise if one of them breaks it.
    return errorOutcome(
      "execution_failed",
      `Tool ${safeName(tool)} failed unexpectedly: ${reasonOf(error)}.`,
    ) as Outcome;
  }
}

/**
 * The second half of {@link invokeTool}: runs `execute` with already validated arguments and
 * maps whatever it throws to an error outcome. Never throws or rejects.
 */
export function executeTool(
  tool: AnyAgentTool,
  toolCallId: string,
  args: Record<string, unknown>,
  options: ExecuteToolOptions = {},
): Promise<ToolOutcome> {
  return new Promise((resolve) => runTool(tool, toolCallId, args, options, undefined, resolve));
}

/**
 * {@link executeTool} for a call of a loop batch, in callback form: `done` gets the outcome,
 * once (not before `execute` has been called). The wait for the tool races the batch's shared
 * `deadline` (made from `options.signal` and `options.abortGraceMs`) instead of setting up a wait
 * of its own; it gives up at the same moment, since every call of a batch starts before the
 * abort. No promise of its own: a message of 1000 calls paid several per call in a chain of
 * async functions. `done` must not throw.
 */
export function executeBatchedTool(
  tool: AnyAgentTool,
  toolCallId: string,
  args: Record<string, unknown>,
  options: ExecuteToolOptions,
  deadline: AbortDeadline | undefined,
  done: (outcome: ToolOutcome) => void,
): void {
  runTool(tool, toolCallId, args, options, deadline, done);
}

function runTool(
  tool: AnyAgentTool,
  toolCallId: string,
  args: Record<string, unknown>,
  options: ExecuteToolOptions,
  deadline: AbortDeadline | undefined,
  done: (outcome: ToolOutcome) => void,
): void {
  const { signal, onUpdate } = options;
  if (signal?.aborted) {
    done(abortedOutcome(tool.name));
    return;
  }
  let gaveUp = false;
  const update =
    onUpdate === undefined
      ? undefined
      : (partial: AgentToolResult) => {
          // A tool the loop stopped waiting for must not report progress after its end event.
          if (gaveUp) return;
          try {
            onUpdate(partial);
          } catch {
            // A broken progress listener must not fail the tool.
          }
        };
  const graceMs = options.abortGraceMs ?? ABORT_GRACE_MS;
  const failed = (error: unknown) => done(toolFailureOutcome(tool, error, signal));
  const settled = (result: AgentToolResult | typeof GAVE_UP) => {
    if (result === GAVE_UP) {
      gaveUp = true;
      done(errorOutcome("aborted", notStoppedMessage(tool.name, graceMs), { stillRunning: true }));
      return;
    }
    let outcome: ToolOutcome;
    try {
      outcome = resultOutcome(tool.name, result);
    } catch (error) {
      // A result whose fields throw when read.
      outcome = toolFailureOutcome(tool, error, signal);
    }
    done(outcome);
  };
  let running: Promise<AgentToolResult>;
  try {
    running = Promise.resolve(tool.execute(toolCallId, args, signal, update));
  } catch (error) {
    // A synchronous throw counts as a rejection.
    failed(error);
    return;
  }
  if (signal === undefined) running.then(settled, failed);
  else if (deadline !== undefined) deadline.watch(running, settled, failed);
  else waitUnlessAborted(running, signal, graceMs).then((raced) => settled(valueOrGaveUp(raced)), failed);
}

function valueOrGaveUp<T>(raced: AbortRaced<T>): T | typeof GAVE_UP {
  return raced.settled ? raced.value : GAVE_UP;
}

function notStoppedMessage(toolName: string, graceMs: number): string {
  const after = graceMs > 0 ? ` within ${graceMs / 1000} s` : "";
  return `Tool ${toolName} was aborted and did not stop${after}; it may still be running and its effects are unknown. Check them before calling it again.`;
}

let counter = 0;
function newToolCallId(): string {
  counter += 1;
  return `call_${Date.now().toString(36)}_${counter}`;
}
