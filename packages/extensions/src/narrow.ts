import type { Static, TSchema } from "@sinclair/typebox";
import type { AgentTool } from "@tackle/agent-core";
import type { ToolCallEvent, ToolResultEvent } from "./extension.js";
import type { ToolDefinition } from "./tool-definition.js";

/** A tool or definition to narrow by: only its `name` is read at run time, its types at compile time. */
type NamedTool<TParams extends TSchema, TDetails> =
  | ToolDefinition<TParams, TDetails>
  | AgentTool<TParams, TDetails>;

/**
 * True when `event` calls `tool`; narrows `event.input` to the tool's parameter type.
 *
 * @example
 * ```ts
 * api.on("tool_call", (event) => {
 *   if (isToolCallFor(event, bashDefinition)) event.input.command; // string
 * });
 * ```
 */
export function isToolCallFor<TParams extends TSchema, TDetails>(
  event: ToolCallEvent,
  tool: NamedTool<TParams, TDetails>,
): event is ToolCallEvent<Static<TParams>> & ToolCallEvent {
  return event.toolName === tool.name;
}

/** True when `event` is a result of `tool`; narrows `input` and `details` to the tool's types. */
export function isToolResultFor<TParams extends TSchema, TDetails>(
  event: ToolResultEvent,
  tool: NamedTool<TParams, TDetails>,
): event is ToolResultEvent<Static<TParams>, TDetails> & ToolResultEvent {
  return event.toolName === tool.name;
}
