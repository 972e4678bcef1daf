/**
 * Splits rg's output into records as chunks arrive from any transport: bytes are decoded as
 * UTF-8 across chunk boundaries (a character split between two chunks stays whole), and each
 * push returns the records it completed, so a transport can yield one batch per chunk.
 */
export class RecordSplitter {
  readonly #separator: string;
  readonly #decoder = new TextDecoder();
  #pending = "";

  /** `separator`: "\n" for `--json` lines, "\0" for `--files --null` paths. */
  constructor(separator: "\n" | "\0") {
    this.#separator = separator;
  }

  /** Adds a chunk; returns the records it completed (possibly none). */
  push(chunk: Uint8Array | string): string[] {
    const text = typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, { stream: true });
    const parts = (this.#pending + text).split(this.#separator);
    this.#pending = parts.pop() ?? "";
    return parts;
  }

  /** Ends the output; returns the last record when it had no separator after it. */
  end(): string[] {
    const rest = this.#pending + this.#decoder.decode();
    this.#pending = "";
    return rest === "" ? [] : [rest];
  }
}
