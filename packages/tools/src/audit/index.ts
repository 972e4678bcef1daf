/**
 * `@tackle/tools/audit`: the bounded workspace snapshot the shell tools compare before and after
 * a command, and (re-exported from `@tackle/session/audit`, where they live) the JSONL file sink
 * for this host, its reader and the redaction every event goes through.
 */

export type { AuditFileContents, JsonlAuditSink, JsonlAuditSinkOptions } from "@tackle/session/audit";
export {
  AUDIT_WRITE_DELAY_MS,
  auditEventProblem,
  createJsonlAuditSink,
  parseAuditLines,
  readAuditFile,
  redactAuditEvent,
  withAuditRedaction,
} from "@tackle/session/audit";
export { SNAPSHOT_SAME_STAMP_WINDOW_MS } from "./content-hashes.js";
export type { SnapshotEntry, SnapshotOptions, WorkspaceSnapshot } from "./workspace-snapshot.js";
export {
  compareSnapshots,
  SNAPSHOT_BLIND_SPOTS,
  SNAPSHOT_HASH_MAX_FILE_BYTES,
  SNAPSHOT_HASH_MAX_TOTAL_BYTES,
  SNAPSHOT_MAX_ENTRIES,
  SNAPSHOT_SKIPPED_DIRECTORIES,
  SNAPSHOT_TIME_BUDGET_MS,
  snapshotWorkspace,
} from "./workspace-snapshot.js";
