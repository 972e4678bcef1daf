/** One frame of an exec's multiplexed output. */
export interface StreamFrame {
  stream: "stdout" | "stderr";
  bytes: Uint8Array;
}

const HEADER_BYTES = 8;

/**
 * Splits the engine's multiplexed attach stream (non-TTY exec) into stdout and stderr frames.
 *
 * Each frame is an 8-byte header `[stream, 0, 0, 0, size (uint32 big-endian)]` and `size` bytes
 * of payload. Written here rather than taken from dockerode's `demuxStream`, which pipes into two
 * writables and so loses the interleaving order the contract's sequence numbers must keep, and
 * gives no backpressure to an async consumer.
 */
export async function* demultiplex(source: AsyncIterable<Uint8Array>): AsyncGenerator<StreamFrame> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const piece of source) {
    pending = pending.length === 0 ? Buffer.from(piece) : Buffer.concat([pending, piece]);
    while (pending.length >= HEADER_BYTES) {
      const size = pending.readUInt32BE(4);
      if (pending.length < HEADER_BYTES + size) break;
      const kind = pending[0];
      const bytes = pending.subarray(HEADER_BYTES, HEADER_BYTES + size);
      pending = pending.subarray(HEADER_BYTES + size);
      // Kind 0 is stdin echo (never sent for exec); treat anything but 2 as stdout.
      if (size > 0) yield { stream: kind === 2 ? "stderr" : "stdout", bytes };
    }
  }
}
