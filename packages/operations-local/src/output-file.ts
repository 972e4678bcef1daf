import { randomBytes } from "node:crypto";
import { type FileHandle, open, unlink } from "node:fs/promises";
import {
  type OutputCut,
  outputCutMarker,
  outputHeadBytes,
  outputTailBytes,
  toOperationError,
} from "@tackle/operations";

/** Bytes copied per read when the tail is appended after the command ended. */
const COPY_BYTES = 1024 * 1024;

/**
 * A command's output file on this machine under the budget of `ExecOptions.outputLimitBytes`:
 * the head is appended as it comes; past it, the last `outputTailBytes` are kept in a ring file
 * beside it (positional writes, so disk holds head + tail whatever the output size) and appended
 * after the marker by {@link close}. Writes are queued in order; {@link pending} and
 * {@link onDrain} let the reader pause its pipes so memory stays bounded too.
 */
export class OutputFile {
  private readonly head: number;
  private readonly tail: number;
  private readonly queue: Buffer[] = [];
  private queued = 0;
  private writing: Promise<void> | undefined;
  private failure: unknown;
  private readonly drainWaiters: (() => void)[] = [];
  /** Bytes given to `write` so far. */
  private total = 0;
  /** Bytes appended to the file itself (the head, or everything without a limit). */
  private appended = 0;
  private ring: { handle: FileHandle; path: string } | undefined;
  /** Bytes written past the head (the ring's write position is this modulo its size). */
  private past = 0;

  private constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
    private readonly limit: number | undefined,
  ) {
    this.head = limit === undefined ? Number.POSITIVE_INFINITY : outputHeadBytes(limit);
    this.tail = limit === undefined ? 0 : outputTailBytes(limit);
  }

  /** Opens `path` for appending (created 0600 when missing); rejects with a typed error. */
  static async open(path: string, limit: number | undefined): Promise<OutputFile> {
    try {
      return new OutputFile(await open(path, "a", 0o600), path, limit);
    } catch (error) {
      throw toOperationError(error, { operation: "exec", path });
    }
  }

  /** Bytes queued and not yet written. */
  get pending(): number {
    return this.queued;
  }

  /** Calls `wake` once the queue is empty (at once when it is). */
  onDrain(wake: () => void): void {
    if (this.queued === 0) wake();
    else this.drainWaiters.push(wake);
  }

  /** Queues `bytes` (kept by reference: the caller must not reuse the buffer). */
  write(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.total += bytes.length;
    this.queue.push(bytes);
    this.queued += bytes.length;
    this.writing ??= this.flush();
  }

  /**
   * Writes what is queued, appends the kept tail after the marker when bytes were dropped, and
   * closes the file. Resolves with the bytes of output given (all of them, kept or not) and the
   * cut, if any. A failing file (disk full) does not reject: the command's result still counts.
   */
  async close(): Promise<{ outputBytes: number; cut?: OutputCut }> {
    await this.writing;
    let cut: OutputCut | undefined;
    try {
      if (this.ring && this.failure === undefined) cut = await this.appendTail(this.ring.handle);
    } catch (error) {
      this.failure = error;
    } finally {
      await this.ring?.handle.close().catch(() => undefined);
      if (this.ring) await unlink(this.ring.path).catch(() => undefined);
      await this.handle.close().catch(() => undefined);
    }
    return { outputBytes: this.total, ...(cut ? { cut } : {}) };
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const size = batch.reduce((sum, bytes) => sum + bytes.length, 0);
      try {
        if (this.failure === undefined) await this.place(batch);
      } catch (error) {
        // Stop writing, keep counting: the command's result must not depend on the disk.
        this.failure = error;
      }
      this.queued -= size;
    }
    this.writing = undefined;
    for (const wake of this.drainWaiters.splice(0)) wake();
  }

  /** Appends what still fits in the head; the rest goes to the ring. */
  private async place(batch: Buffer[]): Promise<void> {
    const toHead: Buffer[] = [];
    const toRing: Buffer[] = [];
    for (const bytes of batch) {
      const room = this.head - this.appended;
      if (room >= bytes.length) {
        toHead.push(bytes);
        this.appended += bytes.length;
      } else if (room > 0) {
        toHead.push(bytes.subarray(0, room));
        this.appended += room;
        toRing.push(bytes.subarray(room));
      } else toRing.push(bytes);
    }
    if (toHead.length > 0) await this.handle.writev(toHead);
    for (const bytes of toRing) await this.toRing(bytes);
  }

  /** Writes `bytes` at the ring's position, wrapping at the tail size; only its last bytes matter. */
  private async toRing(bytes: Buffer): Promise<void> {
    if (this.tail === 0) {
      this.past += bytes.length;
      return;
    }
    this.ring ??= await this.openRing();
    const skip = Math.max(0, bytes.length - this.tail);
    this.past += skip;
    let rest = bytes.subarray(skip);
    while (rest.length > 0) {
      const at = this.past % this.tail;
      const piece = rest.subarray(0, Math.min(rest.length, this.tail - at));
      await this.ring.handle.write(piece, 0, piece.length, at);
      this.past += piece.length;
      rest = rest.subarray(piece.length);
    }
  }

  private async openRing(): Promise<{ handle: FileHandle; path: string }> {
    const path = `${this.path}.tackle-tail-${randomBytes(6).toString("hex")}`;
    return { handle: await open(path, "wx+", 0o600), path };
  }

  /** Appends the marker (when bytes were dropped) and the ring's bytes in stream order. */
  private async appendTail(ring: FileHandle): Promise<OutputCut | undefined> {
    const kept = Math.min(this.past, this.tail);
    const dropped = this.past - kept;
    const start = this.past % this.tail;
    // Oldest first: from the write position to the end, then from the start (once wrapped).
    const ranges: [number, number][] =
      dropped === 0 && this.past <= this.tail
        ? [[0, kept]]
        : [
            [start, this.tail],
            [0, start],
          ];
    if (dropped > 0) await this.handle.write(outputCutMarker(this.limit as number, dropped));
    const buffer = Buffer.allocUnsafe(Math.min(COPY_BYTES, this.tail));
    for (const [from, to] of ranges) {
      for (let at = from; at < to; ) {
        const { bytesRead } = await ring.read(buffer, 0, Math.min(buffer.length, to - at), at);
        if (bytesRead === 0) break;
        await this.handle.write(buffer, 0, bytesRead);
        at += bytesRead;
      }
    }
    if (dropped === 0) return undefined;
    return { headBytes: this.head, droppedBytes: dropped, tailBytes: kept };
  }
}
