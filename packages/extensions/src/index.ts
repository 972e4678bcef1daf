export type {
  ArtifactInfo,
  ArtifactStore,
  ExtensionContext,
  FileMutationQueue,
  Logger,
  OutsideWorkspacePolicy,
  PathAccess,
  ReadLedger,
  ReadRecord,
  ResolvedPath,
  SessionInfo,
  ToolUI,
  WorkspacePolicy,
} from "./context.js";
export { createHeadlessUI, silentLogger } from "./defaults.js";
export { defineTool } from "./define-tool.js";
export { guardContext, STALE_CONTEXT, StaleContextError } from "./stale-context.js";
export type { AnyToolDefinition, ToolAnnotations, ToolDefinition } from "./tool-definition.js";
export type { ExtensionContextFactory, ToolCallInfo } from "./wrap-tool-definition.js";
export {
  createToolDefinitionFromAgentTool,
  definitionOf,
  wrapToolDefinition,
} from "./wrap-tool-definition.js";
