import type { AssistantMessage, ToolCall } from "./messages.js";
import type { ModelContext } from "./model.js";
import type { AnyAgentTool, ToolOutcome } from "./tool.js";
import type { ToolErrorCode } from "./tool-error.js";

/** What a tool-call hook sees. */
export interface ToolCallHookContext {
  toolCall: ToolCall;
  tool: AnyAgentTool;
  /** Arguments after preparation, normalisation and validation. */
  args: Record<string, unknown>;
  assistantMessage: AssistantMessage;
  context: ModelContext;
}

/** Returned by `beforeToolCall`. Replaced `args` are validated again before the tool runs. */
export interface BeforeToolCallResult {
  /** Do not run the tool; the model gets an error result with `reason`. */
  block?: boolean;
  reason?: string;
  /** Mark the result as terminating (see the batch rule). */
  terminate?: boolean;
  /** Run the tool with these arguments instead. */
  args?: Record<string, unknown>;
}

/** What `afterToolCall` sees. */
export interface AfterToolCallContext extends ToolCallHookContext {
  result: ToolOutcome;
}

/** Returned by `afterToolCall`: each field present overrides that field of the result. */
export interface AfterToolCallResult {
  content?: ToolOutcome["content"];
  details?: unknown;
  /** Turning a result into an error without an `errorCode` gives it the code `blocked`. */
  isError?: boolean;
  /** The code of an error result (ignored on a success). */
  errorCode?: ToolErrorCode;
  terminate?: boolean;
}

/** Runs before a tool executes. A throwing hook turns into an error result (the tool does not run). */
export type BeforeToolCallHook = (
  ctx: ToolCallHookContext,
  signal: AbortSignal | undefined,
  // biome-ignore lint/suspicious/noConfusingVoidType: lets a hook be `async () => {}` (Promise<void>)
) => Promise<BeforeToolCallResult | undefined | void> | BeforeToolCallResult | undefined | void;

/** Runs after a tool executes. A throwing hook turns into an error result. */
export type AfterToolCallHook = (
  ctx: AfterToolCallContext,
  signal: AbortSignal | undefined,
  // biome-ignore lint/suspicious/noConfusingVoidType: lets a hook be `async () => {}` (Promise<void>)
) => Promise<AfterToolCallResult | undefined | void> | AfterToolCallResult | undefined | void;
