/**
 * `@tackle/session/audit`: where audit trails are kept on this host. A JSONL file sink (every
 * call's record written to the OS when the call returns), its reader, the shape check of an
 * event read back, and the redaction every event goes through before any sink sees it.
 */
export { auditEventJson } from "./event-json.js";
export { auditEventProblem } from "./event-shape.js";
export type { AuditFileContents, JsonlAuditSink, JsonlAuditSinkOptions } from "./jsonl-sink.js";
export { AUDIT_WRITE_DELAY_MS, createJsonlAuditSink, parseAuditLines, readAuditFile } from "./jsonl-sink.js";
export { markRedacting, redactAuditEvent, withAuditRedaction } from "./redact.js";
