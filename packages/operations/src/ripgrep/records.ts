import type { RipgrepOutputReader } from "./grep-output.js";

/**
 * Splits output into records as chunks arrive from any transport: bytes are decoded as UTF-8
 * across chunk boundaries (a character split between two chunks stays whole), and each push
 * returns the records it completed, so a transport can yield one batch per chunk. Linear in the
 * output: a record that spans many chunks is joined once, when its separator arrives.
 */
export class RecordSplitter implements RipgrepOutputReader<string> {
  readonly #separator: string;
  readonly #decoder = new TextDecoder();
  #pending: string[] = [];

  /** `separator`: "\0" for `--files --null` paths, "\n" for lines. */
  constructor(separator: "\n" | "\0") {
    this.#separator = separator;
  }

  /** Adds a chunk; returns the records it completed (possibly none). */
  push(chunk: Uint8Array | string): string[] {
    const text = typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, { stream: true });
    if (!text.includes(this.#separator)) {
      if (text !== "") this.#pending.push(text);
      return [];
    }
    const parts = text.split(this.#separator);
    if (this.#pending.length > 0) parts[0] = this.#pending.join("") + parts[0];
    const rest = parts.pop() as string;
    this.#pending = rest === "" ? [] : [rest];
    return parts;
  }

  /** Ends the output; returns the last record when it had no separator after it. */
  end(): string[] {
    const rest = this.#pending.join("") + this.#decoder.decode();
    this.#pending = [];
    return rest === "" ? [] : [rest];
  }
}
