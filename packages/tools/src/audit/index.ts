/**
 * `@tackle/tools/audit`: where tool-call audit trails are kept and read. A JSONL file sink for
 * this host, its reader, the redaction every event goes through, and the bounded workspace
 * snapshot the shell tools compare before and after a command.
 */

export {
  SNAPSHOT_HASH_MAX_FILE_BYTES,
  SNAPSHOT_HASH_MAX_TOTAL_BYTES,
  SNAPSHOT_SAME_STAMP_WINDOW_MS,
} from "./content-hashes.js";
export { auditEventProblem } from "./event-shape.js";
export type { AuditFileContents, JsonlAuditSink, JsonlAuditSinkOptions } from "./jsonl-sink.js";
export { AUDIT_WRITE_DELAY_MS, createJsonlAuditSink, parseAuditLines, readAuditFile } from "./jsonl-sink.js";
export { redactAuditEvent, withAuditRedaction } from "./redact.js";
export type { SnapshotOptions, WorkspaceSnapshot } from "./workspace-snapshot.js";
export {
  compareSnapshots,
  SNAPSHOT_BLIND_SPOTS,
  SNAPSHOT_MAX_ENTRIES,
  SNAPSHOT_SKIPPED_DIRECTORIES,
  SNAPSHOT_TIME_BUDGET_MS,
  snapshotWorkspace,
} from "./workspace-snapshot.js";
