/**
 * `@tackle/agent-core`: the agent loop, the executor and its hooks, `invokeTool`, the stateful
 * `Agent`, tool and message types, error codes, and the audit trail's events. Test doubles (the
 * scripted model `createFauxModel`) are on `@tackle/agent-core/testing`; TypeBox's runtime on
 * `@tackle/agent-core/typebox`. Exports marked `@internal` are building blocks Tackle's own
 * packages share; they may change without notice.
 */
export { ABORT_GRACE_MS } from "./abort-race.js";
export type { AgentListener, AgentOptions, AgentState } from "./agent.js";
export { Agent } from "./agent.js";
export type { AuditCallRecord } from "./audit/assemble.js";
export { assembleAuditRecords } from "./audit/assemble.js";
export type { ToolCallAuditOptions } from "./audit/call-audit.js";
export { changedFields } from "./audit/call-audit.js";
export {
  AUDIT_EVENT_KINDS,
  AUDIT_EVENT_SCHEMAS,
  AUDIT_EVENT_VERSION,
  AuditEventBaseSchema,
} from "./audit/event-schemas.js";
export type {
  AuditDecision,
  AuditDiagnostics,
  AuditEnd,
  AuditEnvironment,
  AuditEvent,
  AuditEventInput,
  AuditEventKind,
  AuditFileChange,
  AuditGate,
  AuditIntent,
  AuditOutput,
  AuditResultSize,
  AuditSideEffect,
  AuditSpawn,
  RequestedBy,
} from "./audit/events.js";
export type { AuditRecorder } from "./audit/recorder.js";
export {
  AUDIT_COMMAND_CHARS,
  AUDIT_STRING_CHARS,
  createAuditRecorder,
  NO_AUDIT,
} from "./audit/recorder.js";
export type { AuditSink, MemoryAuditSink } from "./audit/sink.js";
export { createMemoryAuditSink } from "./audit/sink.js";
export { errorCodesOf } from "./error-codes-of.js";
export { EventStream } from "./event-stream.js";
export type { AgentEvent, AgentEventType } from "./events.js";
export type { BatchResult } from "./executor.js";
export { executeToolCalls, LENGTH_STOP_MESSAGE } from "./executor.js";
export type {
  AfterToolCallContext,
  AfterToolCallHook,
  AfterToolCallResult,
  BeforeToolCallHook,
  BeforeToolCallResult,
  ToolCallHookContext,
} from "./hooks.js";
export type { ExecuteToolOptions, InvokeToolOptions } from "./invoke-tool.js";
export { executeTool, invokeTool } from "./invoke-tool.js";
export type { AgentEventStream } from "./loop.js";
export { agentLoop } from "./loop.js";
export type { AgentLoopConfig } from "./loop-config.js";
export type {
  AssistantMessage,
  ImageContent,
  Message,
  ProviderMetadata,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "./messages.js";
export { userMessage } from "./messages.js";
export type { AssistantMessageEvent, Model, ModelContext, StreamFn } from "./model.js";
export { normalizeArguments } from "./normalize-arguments.js";
export type { PreparedArguments } from "./prepare-arguments.js";
export { prepareToolArguments } from "./prepare-arguments.js";
export {
  boundText,
  ERROR_TEXT_MAX_CHARS,
  QUOTED_INPUT_MAX_CHARS,
  quoteInput,
  shortenInput,
} from "./quote-input.js";
export type {
  AgentTool,
  AgentToolResult,
  AgentToolUpdateCallback,
  AnyAgentTool,
  ApprovalCheck,
  InvokeToolOutcome,
  ProviderToolSpec,
  ToolArguments,
  ToolDetails,
  ToolErrorCode,
  ToolFailure,
  ToolOutcome,
  ToolParams,
  ToolSuccess,
} from "./tool.js";
export type { CallScope, ToolCallConfig } from "./tool-call.js";
export type { CoreErrorCode, ErrorCodeMeanings, ToolErrorOptions } from "./tool-error.js";
export { CORE_ERROR_CODES, isCoreErrorCode, isToolError, ToolError } from "./tool-error.js";
export { errorOutcome } from "./tool-outcome.js";
export type { ArgumentProblem } from "./validation-message.js";
export { ARGUMENT_PROBLEMS_SHOWN } from "./validation-message.js";
