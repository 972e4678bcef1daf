import type { AssistantMessage, Message, ToolResultMessage } from "./messages.js";
import type { AssistantMessageEvent } from "./model.js";
import type { AgentToolResult, ToolOutcome } from "./tool.js";
import type { ToolErrorCode } from "./tool-error.js";

/**
 * Events of a run, in this order: agent_start, then per turn turn_start, message_*,
 * tool_execution_*, turn_end; finally agent_end.
 *
 * Every tool call gets one `tool_execution_start` and, after it, one `tool_execution_end`, also a
 * call that never ran (blocked or failed by a hook, invalid arguments, an unknown tool, an abort, a
 * reply cut by the token limit): a UI never sees an end it has no start for. The start comes
 * before hooks decide; the end's `errorCode` (`blocked`, `hook_failed`, `invalid_arguments`,
 * `tool_not_found`, `aborted`, `length_stop`) says why such a call did not run.
 */
export type AgentEvent =
  | { type: "agent_start" }
  | { type: "turn_start" }
  | { type: "message_start"; message: Message }
  | { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: Message }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
  | {
      type: "tool_execution_update";
      toolCallId: string;
      toolName: string;
      args: unknown;
      partialResult: AgentToolResult;
    }
  | {
      type: "tool_execution_end";
      toolCallId: string;
      toolName: string;
      result: ToolOutcome;
      isError: boolean;
      /** Set when `isError`: the same code as `result.errorCode`. */
      errorCode?: ToolErrorCode;
    }
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: "agent_end"; messages: Message[] };

/** Names of {@link AgentEvent}s. */
export type AgentEventType = AgentEvent["type"];
