import type { AssistantMessage, Message, ToolResultMessage } from "./messages.js";
import type { AssistantMessageEvent } from "./model.js";
import type { AgentToolResult, ToolOutcome } from "./tool.js";

/**
 * Events of a run, in this order: agent_start, then per turn turn_start, message_*,
 * tool_execution_*, turn_end; finally agent_end.
 *
 * Every tool call gets one `tool_execution_start` and, after it, one `tool_execution_end`, also a
 * call that never ran (blocked or failed by a hook, invalid arguments, an unknown tool, an abort, a
 * reply cut by the token limit): a UI never sees an end it has no start for. The start comes
 * before hooks decide; the end's `errorCode` (`blocked`, `hook_failed`, `invalid_arguments`,
 * `tool_not_found`, `aborted`, `length_stop`) says why such a call did not run.
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
