export type { AgentEvent, AgentEventType } from "./events.js";
export type {
  AfterToolCallContext,
  AfterToolCallHook,
  AfterToolCallResult,
  BeforeToolCallHook,
  BeforeToolCallResult,
  ToolCallHookContext,
} from "./hooks.js";
export type { InvokeToolOptions, PreparedArguments } from "./invoke-tool.js";
export {
  errorOutcome,
  executeTool,
  invokeTool,
  prepareToolArguments,
  toolFailureOutcome,
} from "./invoke-tool.js";
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
export type { AssistantMessageEvent, Model, ModelContext, StreamFn } from "./model.js";
export { normalizeArguments } from "./normalize-arguments.js";
export type {
  AgentTool,
  AgentToolResult,
  AgentToolUpdateCallback,
  AnyAgentTool,
  ToolOutcome,
} from "./tool.js";
export type { ToolErrorCode, ToolErrorOptions } from "./tool-error.js";
export { isToolError, ToolError } from "./tool-error.js";
export type { ArgumentProblem } from "./validation-message.js";
export {
  describeSchema,
  describeValidationErrors,
  describeValue,
  formatValidationMessage,
} from "./validation-message.js";
