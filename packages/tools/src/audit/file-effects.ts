import type { AuditFileChange, AuditRecorder } from "@tackle/agent-core";
import { sha256Hex } from "@tackle/session";

/** A file a file tool wrote, for {@link recordFileChange}. */
export interface FileChange {
  path: string;
  /** The content before the write; null for a file that did not exist. */
  before: Uint8Array | null;
  /** The content written. */
  after: Uint8Array;
  /** sha256 of `before` when the tool already computed it (the stale-read check): not hashed again. */
  sha256Before?: string | undefined;
  /** sha256 of `after` when the tool already computed it (the read ledger): not hashed again. */
  sha256After?: string | undefined;
}

/**
 * Records exactly what a file tool changed: the path, bytes and sha256 before and after, created
 * or changed. Nothing is hashed unless audited, and a content whose hash the tool passes is not
 * hashed again.
 */
export function recordFileChange(audit: AuditRecorder, file: FileChange, source: string): void {
  if (!audit.enabled) return;
  const change: AuditFileChange = {
    path: file.path,
    change: file.before === null ? "created" : "changed",
    bytesAfter: file.after.length,
    sha256After: file.sha256After ?? sha256Hex(file.after),
  };
  if (file.before !== null) {
    change.bytesBefore = file.before.length;
    change.sha256Before = file.sha256Before ?? sha256Hex(file.before);
  }
  audit.record({ kind: "side-effect", source, method: "exact", files: [change] });
}

/** Records that a call changed nothing (a read-only tool, a dry run, an edit already applied). */
export function recordNoChange(audit: AuditRecorder, source: string, why: string): void {
  if (!audit.enabled) return;
  audit.record({ kind: "side-effect", source, method: "none", files: [], note: why });
}
