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
export type { AnyToolDefinition, ToolAnnotations, ToolDefinition } from "./tool-definition.js";
