import type { AssistantMessage, Message, ToolResultMessage } from "./messages.js";
import type { AssistantMessageEvent } from "./model.js";
import type { AgentToolResult, ToolOutcome } from "./tool.js";

/**
 * Events of a run, in this order: agent_start, then per turn turn_start, message_*,
 * tool_execution_*, turn_end; finally agent_end.
 *
 * Every tool call gets one `tool_execution_end`. A call that runs gets one `tool_execution_start`
 * before it, when it starts (after `beforeToolCall` allowed it). A call that never ran (blocked or
 * failed by a hook, invalid arguments, an unknown tool, an abort, a reply cut by the token limit)
 * gets no start, so a UI never shows a command that did not run; its end's `errorCode`
 * (`blocked`, `hook_failed`, `invalid_arguments`, `tool_not_found`, `aborted`, `length_stop`)
 * says why.
 *
 * `TErrorCode` is what an error code in the events may be: any code by default, or the codes of
 * the run's tools (`ToolErrorCode<(typeof tools)[number]>`).
 */
export type AgentEvent<TErrorCode extends string = string> =
  | { type: "agent_start" }
  | { type: "turn_start" }
  | { type: "message_start"; message: Message<TErrorCode> }
  | { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: Message<TErrorCode> }
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
      result: ToolOutcome<unknown, TErrorCode>;
      isError: boolean;
      /** Set when `isError`: the same code as `result.errorCode`. */
      errorCode?: TErrorCode;
    }
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage<unknown, TErrorCode>[] }
  | { type: "agent_end"; messages: Message<TErrorCode>[] };

/** Names of {@link AgentEvent}s. */
export type AgentEventType = AgentEvent["type"];
