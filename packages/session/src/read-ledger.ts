/**
 * The read ledger: what the model last read of each file, by real path and sha256 of the whole
 * content, so write and edit can refuse to overwrite changes the model has not seen. A read of a
 * file larger than {@link READ_WHOLE_HASH_MAX_BYTES} records the hash of the bytes it showed with
 * the file's size and mtime instead (a `ReadWindow`): hashing a 1 GiB file to show its last 50
 * lines would cost more than finding them.
 */
import { createHash } from "node:crypto";
import { ToolError } from "@tackle/agent-core";
import type { ExtensionContext, ReadLedger, ReadRecord, ReadWindow } from "@tackle/extensions";

/**
 * Largest file whose every read hashes all of it (64 MiB, about 40 ms of hashing). Files up to
 * this size, which is where edits happen, are compared by content: a touch without a change
 * passes. A larger file is unchanged while its size, mtime and the bytes read are; a touch of it
 * counts as a change (the model reads it again), never the reverse.
 */
export const READ_WHOLE_HASH_MAX_BYTES = 64 * 1024 * 1024;

/** Creates an in-memory {@link ReadLedger}. */
export function createReadLedger(): ReadLedger {
  const records = new Map<string, ReadRecord>();
  return {
    record(path, sha256, window) {
      records.set(path, { path, sha256, ...(window ? { window: { ...window } } : {}), readAt: Date.now() });
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
 * (compared by hash, so a touch without a change passes; for a read of part of a large file,
 * see {@link READ_WHOLE_HASH_MAX_BYTES}, by size, mtime and the hash of the part read, which
 * needs `currentMtimeMs`, the mtime of a stat taken before `currentBytes` were read). A file the
 * model never read passes: the caller decides whether that is acceptable. Returns the sha256 of
 * all of `currentBytes` when the check computed it (the file was read whole before), so the
 * caller never hashes the same content again; otherwise undefined.
 */
export function assertNotStale(
  ctx: Pick<ExtensionContext, "reads">,
  realPath: string,
  currentBytes: Uint8Array,
  displayPath: string = realPath,
  currentMtimeMs?: number,
): string | undefined {
  const record = ctx.reads.get(realPath);
  if (!record) return undefined;
  const window = record.window;
  const current = window ? windowHash(currentBytes, window, currentMtimeMs) : sha256Hex(currentBytes);
  if (current !== record.sha256) {
    throw new ToolError(
      "stale_read",
      `${displayPath} changed since you read it; read it again before editing.`,
      {
        details: { path: realPath, readSha256: record.sha256, currentSha256: current, readAt: record.readAt },
      },
    );
  }
  return window ? undefined : current;
}

/** The hash of `window`'s bytes in `bytes`, or "" when the size or mtime alone tell a change. */
function windowHash(bytes: Uint8Array, window: ReadWindow, mtimeMs: number | undefined): string {
  if (bytes.length !== window.size || mtimeMs !== window.mtimeMs) return "";
  return sha256Hex(bytes.subarray(window.start, window.end));
}

/**
 * Records that the model now knows `bytes` as the content of `realPath` (after a read or its own
 * write). Returns the sha256 of `bytes` it recorded.
 */
export function recordRead(
  ctx: Pick<ExtensionContext, "reads">,
  realPath: string,
  bytes: Uint8Array,
): string {
  const sha256 = sha256Hex(bytes);
  ctx.reads.record(realPath, sha256);
  return sha256;
}
