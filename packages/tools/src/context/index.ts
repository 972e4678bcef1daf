/**
 * `@tackle/tools/context`: the parts `createToolContext` assembles, for hosts that build a
 * context of their own (a custom artifact store, a ledger shared between sessions, MCP roots).
 */

export type { ArtifactOperations, ArtifactStoreOptions, WorkspacePolicyOptions } from "@tackle/session";
export {
  ARTIFACT_RETENTION_MS,
  assertNotStale,
  createArtifactStore,
  createFileMutationQueue,
  createReadLedger,
  createWorkspacePolicy,
  getFileMutationQueue,
  READ_WHOLE_HASH_MAX_BYTES,
  readableArtifactDirectory,
  recordRead,
} from "@tackle/session";
export { hasTool, hintFor } from "../tool-names.js";
export type { DisposeToolContextOptions } from "./dispose-tool-context.js";
export { disposeToolContext } from "./dispose-tool-context.js";
