/**
 * The read ledger: what the model last read of each file, by real path and sha256 of the whole
 * content, so write and edit can refuse to overwrite changes the model has not seen.
 */
import { createHash } from "node:crypto";
import { ToolError } from "@tackle/agent-core";
import type { ExtensionContext, ReadLedger, ReadRecord } from "@tackle/extensions";

/** Creates an in-memory {@link ReadLedger}. */
export function createReadLedger(): ReadLedger {
  const records = new Map<string, ReadRecord>();
  return {
    record(path, sha256) {
      records.set(path, { path, sha256, readAt: Date.now() });
    },
    get(path) {
      return records.get(path);
    },
    forget(path) {
      records.delete(path);
    },
  };
}

/** Hex sha256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Fails with `stale_read` when the model read `realPath` before and its content changed since
 * (compared by hash, so a touch without a change passes). A file the model never read passes:
 * the caller decides whether that is acceptable.
 */
export function assertNotStale(
  ctx: Pick<ExtensionContext, "reads">,
  realPath: string,
  currentBytes: Uint8Array,
  displayPath: string = realPath,
): void {
  const record = ctx.reads.get(realPath);
  if (!record) return;
  const current = sha256Hex(currentBytes);
  if (current !== record.sha256) {
    throw new ToolError(
      "stale_read",
      `${displayPath} changed since you read it; read it again before editing.`,
      {
        details: { path: realPath, readSha256: record.sha256, currentSha256: current, readAt: record.readAt },
      },
    );
  }
}

/** Records that the model now knows `bytes` as the content of `realPath` (after a read or its own write). */
export function recordRead(ctx: Pick<ExtensionContext, "reads">, realPath: string, bytes: Uint8Array): void {
  ctx.reads.record(realPath, sha256Hex(bytes));
}
