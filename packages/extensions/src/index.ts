export { approvedCallId, runApprovedCall } from "./approved-call.js";
export { auditedWorkspace, withResolve } from "./audited-workspace.js";
export type { CallContextOptions } from "./call-context.js";
export { contextForCall } from "./call-context.js";
export type {
  ArtifactInfo,
  ArtifactStore,
  CallInfo,
  ExtensionContext,
  FileMutationQueue,
  Logger,
  OutsideWorkspacePolicy,
  PathAccess,
  ReadLedger,
  ReadRecord,
  ReadWindow,
  ResolvedPath,
  SessionInfo,
  ToolSession,
  ToolUI,
  WorkspacePolicy,
} from "./context.js";
export { createHeadlessUI, isHeadlessUI, silentLogger } from "./defaults.js";
export type { ToolDefinitionInput } from "./define-tool.js";
export { defineTool } from "./define-tool.js";
export type {
  ChangeFeedback,
  Diagnostic,
  DiagnosticSeverity,
  DiagnosticsEvent,
  DiagnosticsProvider,
  DiagnosticsRequest,
  DiagnosticsSettings,
  FeedbackCode,
  ServerFeedback,
  SyntaxFeedback,
} from "./diagnostics.js";
export { DIAGNOSTICS_DEFAULTS } from "./diagnostics.js";
export type {
  Extension,
  ExtensionAPI,
  ExtensionCommand,
  ExtensionEventName,
  ExtensionHandler,
  ExtensionHandlers,
  ToolCallEvent,
  ToolCallEventResult,
  ToolResultEvent,
  ToolResultPatch,
} from "./extension.js";
export { defineExtension } from "./extension.js";
export type { ExportedToolSchema, JsonSchema } from "./json-schema.js";
export { exportToolSchemas, toJsonSchema } from "./json-schema.js";
export type { ExtensionSource } from "./loader.js";
export { isToolCallFor, isToolResultFor } from "./narrow.js";
export { mapEscapedError, specialFileError, toToolError } from "./operation-errors.js";
export type { CommandInfo, ExtensionError, ExtensionRunnerOptions, LoadResult } from "./runner.js";
export { ExtensionRunner } from "./runner.js";
export type { SessionKey } from "./session-state.js";
export { SessionState, sessionKey } from "./session-state.js";
export { guardContext, STALE_CONTEXT, StaleContextError } from "./stale-context.js";
export type { SystemPromptOptions } from "./system-prompt.js";
export { buildSystemPrompt } from "./system-prompt.js";
export type { AnyToolDefinition, ToolAnnotations, ToolDefinition } from "./tool-definition.js";
export type { ExtensionContextFactory, ToolCallInfo, WrapToolOptions } from "./wrap-tool-definition.js";
export {
  createToolDefinitionFromAgentTool,
  definitionOf,
  wrapToolDefinition,
} from "./wrap-tool-definition.js";
