/** Bytes before a frame's payload: length (4), kind (1), id (4), fd (1). */
const HEADER_BYTES = 10;

/**
 * Splits the helper's stdout into frames (`[u32 length of the rest][u8 kind][u32 id][u8 fd]
 * [payload]`, see `spawnHelperMain`) whatever the chunk boundaries, in order. A payload is a
 * view into the chunk it arrived in when it fits there (no copy for most output).
 *
 * `onFrame` returns true to stop before the next frame until the next turn of the event loop
 * (`setImmediate`): after a process's `spawned` frame, its caller must attach its listeners
 * (promise continuations run first) before its output and exit, often in the same chunk, are
 * handed on. Chunks arriving meanwhile wait behind it, in order.
 */
export class FrameReader {
  private rest: Buffer | undefined;
  private waiting = false;
  private readonly afterWait: (() => void)[] = [];

  constructor(private readonly onFrame: (kind: number, id: number, fd: number, payload: Buffer) => boolean) {}

  push(chunk: Buffer): void {
    this.rest = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    if (!this.waiting) this.read();
  }

  /** Calls `then` once every frame received so far was handed on (at once when none waits). */
  whenRead(then: () => void): void {
    if (this.waiting) this.afterWait.push(then);
    else then();
  }

  private read(): void {
    const bytes = this.rest;
    this.rest = undefined;
    if (!bytes) {
      for (const then of this.afterWait.splice(0)) then();
      return;
    }
    let at = 0;
    while (bytes.length - at >= HEADER_BYTES) {
      const end = at + 4 + bytes.readUInt32BE(at);
      if (end > bytes.length) break;
      const kind = bytes.readUInt8(at + 4);
      const id = bytes.readUInt32BE(at + 5);
      const fd = bytes.readUInt8(at + 9);
      const payload = bytes.subarray(at + HEADER_BYTES, end);
      at = end;
      if (this.onFrame(kind, id, fd, payload) && at < bytes.length) {
        this.waiting = true;
        this.rest = bytes.subarray(at);
        setImmediate(() => {
          this.waiting = false;
          this.read();
        });
        return;
      }
    }
    if (at < bytes.length) {
      // Copied: the partial frame must not keep the whole chunk alive, nor see it reused.
      this.rest = Buffer.from(bytes.subarray(at));
    }
    for (const then of this.afterWait.splice(0)) then();
  }
}
