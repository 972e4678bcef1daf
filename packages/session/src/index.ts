/**
 * `@tackle/session`: the runtime of a tool session — the workspace path policy, the file mutation
 * queue, the read ledger, the artifact store, the redaction of secrets — and, on `/audit`, the
 * JSONL file sink of the audit trail. `createToolContext` of `@tackle/tools` assembles a session
 * from these; hosts that build their own take the pieces from here.
 */
export type { ArtifactOperations, ArtifactStoreOptions } from "./artifacts.js";
export { ARTIFACT_RETENTION_MS, createArtifactStore } from "./artifacts.js";
export { createFileMutationQueue, getFileMutationQueue } from "./mutation-queue.js";
export { PATH_LIMITS } from "./path/limits.js";
export { explainMissingPath } from "./path/near-miss.js";
export { looseNameKey, normalizeModelPath, pathSpellings } from "./path/normalize.js";
export type { PathSyntax, RealPathOperations } from "./path/real-path.js";
export { resolveRealPath } from "./path/real-path.js";
export { recheckWriteTarget, withinRoot } from "./path/recheck.js";
export type { WorkspacePolicyOptions } from "./path/workspace-policy.js";
export {
  createWorkspacePolicy,
  displayPath,
  pathSyntax,
  resolveWorkspacePath,
} from "./path/workspace-policy.js";
export {
  assertNotStale,
  createReadLedger,
  READ_WHOLE_HASH_MAX_BYTES,
  recordRead,
  sha256Hex,
} from "./read-ledger.js";
export { readableArtifactDirectory } from "./readable-artifacts.js";
export { applySpans, LineRedactor, lineRedactorFor, redactLines, redactSecrets } from "./redaction/engine.js";
export type { SecretSpan } from "./redaction/formats.js";
export type { RedactionKind } from "./redaction/kinds.js";
export { REDACTED_PLACEHOLDER, REDACTION_KINDS } from "./redaction/kinds.js";
export { placeholderRefusalMessage } from "./redaction/placeholder-messages.js";
export type { PlaceholderExpansion, PlaceholderRefusal, RevealedSecret } from "./redaction/placeholders.js";
export { expandRedactedPlaceholders, hideRevealedInError } from "./redaction/placeholders.js";
export type { RedactionSource } from "./redaction/source.js";
export { redactionSourceOf } from "./redaction/source.js";
export { stripControl } from "./text/control.js";
