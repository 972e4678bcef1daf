import { createHash, type Hash } from "node:crypto";

/** Bytes the kept tail starts with before it grows (most commands print less). */
const FIRST_RING_BYTES = 4096;

/**
 * Bounded, incremental capture of command output on the host: counts bytes, hashes them in
 * arrival order, and keeps only the last `tailBytes` bytes (what the model, live updates and
 * prompt detection need), in a ring that grows to that size and is then overwritten in place.
 * Memory is O(`tailBytes`) whatever the command prints, and a chunk costs a copy into the ring:
 * the tail is decoded only when {@link OutputCapture.tail} asks for it, not chunk by chunk (a
 * 500 MB output decoded as it streamed cost about half the call's time and 25 MB of garbage
 * strings).
 *
 * UTF-8 is decoded whole: a character split across two chunks is decoded once both arrived; an
 * incomplete last character waits for the rest until {@link OutputCapture.end}. When the start
 * of the output is not kept (dropped from the ring, or skipped), leading continuation bytes are
 * dropped so the text starts on a character.
 */
export class OutputCapture {
  private ring = new Uint8Array(0);
  /** Index of the oldest kept byte in `ring`. */
  private start = 0;
  /** Bytes kept. */
  private kept = 0;
  private ended = false;
  private decoded: string | undefined;
  private hash: Hash | undefined;
  /** Bytes pushed or skipped so far. */
  totalBytes = 0;
  /** True when the start of the output is no longer in the kept tail. */
  cut = false;

  constructor(
    private readonly tailBytes: number,
    options: { hash?: boolean } = {},
  ) {
    if (options.hash) this.hash = createHash("sha256");
  }

  /** Feeds the next bytes of output, in arrival order. */
  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.totalBytes += bytes.length;
    this.hash?.update(bytes);
    this.decoded = undefined;
    const capacity = this.tailBytes;
    let data = bytes;
    if (data.length >= capacity) {
      // Only its last `capacity` bytes can stay.
      if (this.kept > 0 || data.length > capacity) this.cut = true;
      data = data.subarray(data.length - capacity);
      this.start = 0;
      this.kept = 0;
    }
    this.reserve(this.kept + data.length);
    const size = this.ring.length;
    let at = (this.start + this.kept) % size;
    for (let from = 0; from < data.length; ) {
      const piece = Math.min(data.length - from, size - at);
      this.ring.set(data.subarray(from, from + piece), at);
      from += piece;
      at = (at + piece) % size;
    }
    const overflow = this.kept + data.length - size;
    if (overflow > 0) {
      // The oldest bytes were overwritten.
      this.start = (this.start + overflow) % size;
      this.kept = size;
      this.cut = true;
    } else {
      this.kept += data.length;
    }
  }

  /** Records `count` bytes that were not read: the hash becomes unknown and the tail restarts. */
  skip(count: number): void {
    if (count <= 0) return;
    this.totalBytes += count;
    this.hash = undefined;
    this.start = 0;
    this.kept = 0;
    this.cut = true;
    this.decoded = undefined;
  }

  /** Hex sha256 of everything pushed, or undefined when bytes were skipped or hashing is off. */
  digest(): string | undefined {
    return this.hash?.copy().digest("hex");
  }

  /**
   * The decoded tail. When the start was cut, the first (partial) line is dropped so the model
   * never sees half a line presented as whole.
   */
  tail(): string {
    if (this.decoded !== undefined) return this.decoded;
    let bytes = this.ordered();
    if (this.cut) {
      let lead = 0;
      while (lead < bytes.length && lead < 3 && ((bytes[lead] as number) & 0xc0) === 0x80) lead++;
      bytes = bytes.subarray(lead);
    }
    if (!this.ended) bytes = bytes.subarray(0, bytes.length - incompleteUtf8Suffix(bytes));
    const text = new TextDecoder("utf-8").decode(bytes);
    const newline = this.cut ? text.indexOf("\n") : -1;
    this.decoded = newline === -1 ? text : text.slice(newline + 1);
    return this.decoded;
  }

  /** Marks the output complete: an incomplete final character becomes U+FFFD. */
  end(): void {
    this.ended = true;
    this.decoded = undefined;
  }

  /** The kept bytes, oldest first (a view when they do not wrap, else a copy). */
  private ordered(): Uint8Array {
    const size = this.ring.length;
    if (this.start + this.kept <= size) return this.ring.subarray(this.start, this.start + this.kept);
    const out = new Uint8Array(this.kept);
    const first = size - this.start;
    out.set(this.ring.subarray(this.start), 0);
    out.set(this.ring.subarray(0, this.kept - first), first);
    return out;
  }

  /** Grows the ring (up to `tailBytes`) to hold `wanted` bytes, keeping the kept ones in order. */
  private reserve(wanted: number): void {
    const size = this.ring.length;
    if (wanted <= size || size >= this.tailBytes) return;
    let next = Math.max(size * 2, FIRST_RING_BYTES);
    while (next < wanted) next *= 2;
    const grown = new Uint8Array(Math.min(next, this.tailBytes));
    // Not wrapped yet: a ring wraps only once it is full at its final size.
    grown.set(this.ring.subarray(this.start, this.start + this.kept), 0);
    this.ring = grown;
    this.start = 0;
  }
}

/** Length of an incomplete UTF-8 sequence at the end of `bytes` (0 when it ends on a boundary). */
export function incompleteUtf8Suffix(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}
