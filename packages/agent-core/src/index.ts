export type {
  AssistantMessage,
  ImageContent,
  Message,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "./messages.js";
export type { AgentTool, AgentToolResult, AgentToolUpdateCallback, AnyAgentTool, ToolOutcome } from "./tool.js";
export { ToolError, isToolError } from "./tool-error.js";
export type { ToolErrorCode, ToolErrorOptions } from "./tool-error.js";
export type { AssistantMessageEvent, Model, ModelContext, StreamFn } from "./model.js";
export type { AgentEvent, AgentEventType } from "./events.js";
export type {
  AfterToolCallContext,
  AfterToolCallHook,
  AfterToolCallResult,
  BeforeToolCallHook,
  BeforeToolCallResult,
  ToolCallHookContext,
} from "./hooks.js";
