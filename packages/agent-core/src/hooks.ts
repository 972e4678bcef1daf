import type { AssistantMessage, ToolCall } from "./messages.js";
import type { ModelContext } from "./model.js";
import type { AnyAgentTool, ToolErrorCode, ToolOutcome } from "./tool.js";

/** What a tool-call hook sees (`TTool`: the run's tools, which type `tool` and the result's code). */
export interface ToolCallHookContext<TTool extends AnyAgentTool = AnyAgentTool> {
  toolCall: ToolCall;
  tool: TTool;
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

/** What `afterToolCall` sees: the result's `errorCode` is a core code or one of `tool`'s. */
export interface AfterToolCallContext<TTool extends AnyAgentTool = AnyAgentTool>
  extends ToolCallHookContext<TTool> {
  result: ToolOutcome<unknown, ToolErrorCode<TTool>>;
}

/**
 * Returned by `afterToolCall`: each field present overrides that field of the result. The
 * hook is the host's, so its `errorCode` may be a code of the host's own (`TErrorCode`).
 */
export interface AfterToolCallResult<TErrorCode extends string = string> {
  content?: ToolOutcome["content"];
  details?: unknown;
  /** Turning a result into an error without an `errorCode` gives it the code `blocked`. */
  isError?: boolean;
  /** The code of an error result (ignored on a success). */
  errorCode?: TErrorCode;
  terminate?: boolean;
}

/** Runs before a tool executes. A throwing hook turns into an error result (the tool does not run). */
export type BeforeToolCallHook<TTool extends AnyAgentTool = AnyAgentTool> = (
  ctx: ToolCallHookContext<TTool>,
  signal: AbortSignal | undefined,
  // biome-ignore lint/suspicious/noConfusingVoidType: lets a hook be `async () => {}` (Promise<void>)
) => Promise<BeforeToolCallResult | undefined | void> | BeforeToolCallResult | undefined | void;

/** Runs after a tool executes. A throwing hook turns into an error result. */
export type AfterToolCallHook<TTool extends AnyAgentTool = AnyAgentTool> = (
  ctx: AfterToolCallContext<TTool>,
  signal: AbortSignal | undefined,
  // biome-ignore lint/suspicious/noConfusingVoidType: lets a hook be `async () => {}` (Promise<void>)
) => Promise<AfterToolCallResult | undefined | void> | AfterToolCallResult | undefined | void;
