import type { AuditFileChange, AuditRecorder } from "@tackle/agent-core";
import { sha256Hex } from "../context/read-ledger.js";

/**
 * Records exactly what a file tool changed: the path, bytes and sha256 before and after, created
 * or changed. `before` is null for a file that did not exist. Nothing is hashed unless audited.
 */
export function recordFileChange(
  audit: AuditRecorder,
  file: { path: string; before: Uint8Array | null; after: Uint8Array },
  source: string,
): void {
  if (!audit.enabled) return;
  const change: AuditFileChange = {
    path: file.path,
    change: file.before === null ? "created" : "changed",
    bytesAfter: file.after.length,
    sha256After: sha256Hex(file.after),
  };
  if (file.before !== null) {
    change.bytesBefore = file.before.length;
    change.sha256Before = sha256Hex(file.before);
  }
  audit.record({ kind: "side-effect", source, method: "exact", files: [change] });
}

/** Records that a call changed nothing (a read-only tool, a dry run, an edit already applied). */
export function recordNoChange(audit: AuditRecorder, source: string, why: string): void {
  if (!audit.enabled) return;
  audit.record({ kind: "side-effect", source, method: "none", files: [], note: why });
}
