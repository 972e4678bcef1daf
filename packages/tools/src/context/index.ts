/**
 * `@tackle/tools/context`: the parts `createToolContext` assembles, for hosts that build a
 * context of their own (a custom artifact store, a ledger shared between sessions, MCP roots).
 */

export type { WorkspacePolicyOptions } from "../path/workspace-policy.js";
export { createWorkspacePolicy } from "../path/workspace-policy.js";
export { hasTool, hintFor } from "../tool-names.js";
export type { ArtifactOperations, ArtifactStoreOptions } from "./artifacts.js";
export { ARTIFACT_RETENTION_MS, createArtifactStore } from "./artifacts.js";
export type { DisposeToolContextOptions } from "./dispose-tool-context.js";
export { disposeToolContext } from "./dispose-tool-context.js";
export { createFileMutationQueue, getFileMutationQueue } from "./mutation-queue.js";
export { assertNotStale, createReadLedger, READ_WHOLE_HASH_MAX_BYTES, recordRead } from "./read-ledger.js";
export { readableArtifactDirectory } from "./readable-artifacts.js";
