import { createHash, type Hash } from "node:crypto";

/**
 * Bounded, incremental capture of command output on the host: counts bytes, hashes them in
 * arrival order, and keeps only the decoded tail (what the model, live updates and prompt
 * detection need). Memory is O(`tailChars`) whatever the command prints.
 *
 * UTF-8 is decoded with a streaming `TextDecoder`, so a character split across two chunks is
 * decoded whole. After {@link OutputCapture.skip} (bytes not seen, e.g. the fast path reading
 * only the end of a file) the decoder restarts and leading continuation bytes are dropped.
 */
export class OutputCapture {
  private decoder = new TextDecoder("utf-8");
  private text = "";
  private resync = false;
  private hash: Hash | undefined;
  /** Bytes pushed or skipped so far. */
  totalBytes = 0;
  /** True when the start of the output is no longer in the kept tail. */
  cut = false;

  constructor(
    private readonly tailChars: number,
    options: { hash?: boolean } = {},
  ) {
    if (options.hash) this.hash = createHash("sha256");
  }

  /** Feeds the next bytes of output, in arrival order. */
  push(bytes: Uint8Array): void {
    this.totalBytes += bytes.length;
    this.hash?.update(bytes);
    let data = bytes;
    if (this.resync) {
      let start = 0;
      while (start < data.length && start < 3 && ((data[start] as number) & 0xc0) === 0x80) start++;
      data = data.subarray(start);
      if (data.length > 0) this.resync = false;
    }
    this.append(this.decoder.decode(data, { stream: true }));
  }

  /** Records `count` bytes that were not read: the hash becomes unknown and the tail restarts. */
  skip(count: number): void {
    if (count <= 0) return;
    this.totalBytes += count;
    this.hash = undefined;
    this.decoder = new TextDecoder("utf-8");
    this.text = "";
    this.cut = true;
    this.resync = true;
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
    if (!this.cut) return this.text;
    const newline = this.text.indexOf("\n");
    return newline === -1 ? this.text : this.text.slice(newline + 1);
  }

  /** Flushes the decoder (an incomplete final character becomes U+FFFD). */
  end(): void {
    this.append(this.decoder.decode());
  }

  private append(chunk: string): void {
    if (chunk.length === 0) return;
    this.text += chunk;
    // Trim in batches (at twice the budget) so appending stays amortised O(1) per byte.
    if (this.text.length > this.tailChars * 2) {
      this.text = this.text.slice(this.text.length - this.tailChars);
      this.cut = true;
    }
  }
}
