/**
 * Reading what rg prints for a `planGrep` run, in bounded memory whatever the lines hold.
 *
 * Why not `--json`: rg's JSON printer ignores `--max-columns` and prints every submatch, so a 1 MB
 * line of `x` searched for `x` becomes a 51 MB JSON record (and an 8 MB line costs rg itself
 * 6.5 s and 1.1 GB). The standard printer with `--max-columns N --max-columns-preview` prints at
 * most about N bytes of any line, so long lines cost what ripgrep's own search costs. This
 * reader then never holds more than a fixed number of bytes of one line either, whatever a
 * transport delivers.
 *
 * The format (`--no-heading --with-filename --line-number --null`): each line is
 * `PATH \0 NUMBER SEP TEXT \n`, SEP `:` for a match and `-` for a context line. PATH comes first
 * and ends at the NUL (a file name may hold `\n`, never NUL), TEXT ends at `\n` (a line never
 * holds one). Other lines rg writes to stdout have no NUL: `--` between context groups, and
 * its binary-file notices (`PATH: WARNING: stopped searching binary file after match (...)`,
 * `PATH: binary file matches (...)`); they are recognised and skipped.
 */

/** One line rg printed, before the path is made request-relative (see `grepEventsOf`). */
export interface GrepLine {
  type: "match" | "context";
  /** The path as rg printed it (`./src/a.ts`, or a file's name). */
  path: string;
  lineNumber: number;
  /** The line without its terminator, at most the reader's `maxChars` characters. */
  line: string;
  /** True when `line` is only the start of a longer line. */
  truncated: boolean;
}

/** Turns the stdout bytes of one rg run into records as chunks arrive from any transport. */
export interface RipgrepOutputReader<T> {
  /** Adds a chunk; returns the records it completed (possibly none). */
  push(chunk: Uint8Array): T[];
  /** Ends the output; returns what the last chunk left complete enough to report. */
  end(): T[];
}

/** Characters of a line kept when a request does not say (`GrepRequest.maxLineLength`). */
export const GREP_MAX_LINE_CHARS = 4096;

/** Bytes a UTF-8 character takes at most: `--max-columns` is in bytes, the contract in characters. */
const MAX_UTF8_BYTES = 4;

/** Bytes of a record's start held to find the end of its path (PATH_MAX is 4096). */
const MAX_HEAD_BYTES = 16 * 1024;

/** What rg appends to a line it cut with `--max-columns-preview`. */
const PREVIEW_SUFFIX = / \[\.\.\. (?:omitted end of long line|\d+ more match(?:es)?)\]$/;

/** rg's stdout lines that are not results: a context group separator and binary-file notices. */
const NOTICE =
  /^(?:--|[\s\S]*: (?:WARNING: stopped searching binary file after match|binary file matches) \(found [\s\S]* byte around offset \d+\))$/i;

const NUL = 0;
const LF = 0x0a;
const COLON = 0x3a;
const DASH = 0x2d;

/** `--max-columns` for lines of at most `maxChars` characters: enough bytes for any of them. */
export function maxColumnsFor(maxChars: number): number {
  return Math.max(1, Math.floor(maxChars)) * MAX_UTF8_BYTES;
}

/**
 * Reads `planGrep` output (see the module comment). `maxChars` bounds each line kept; rg runs
 * with `--max-columns maxColumnsFor(maxChars)`. Memory per run is bounded by a few times that,
 * whatever the input: bytes past the bound are counted, not kept.
 */
export class GrepOutputReader implements RipgrepOutputReader<GrepLine> {
  readonly #maxChars: number;
  readonly #maxColumns: number;
  /** Bytes of TEXT kept: the line's bytes for `maxChars` characters plus rg's preview suffix. */
  readonly #keepBytes: number;
  #state: "head" | "number" | "text" | "skip" = "head";
  #headBytes: Uint8Array[] = [];
  #headLength = 0;
  #path = "";
  #lineNumber = 0;
  #type: GrepLine["type"] = "match";
  #text: Uint8Array[] = [];
  #textLength = 0;
  #dropped = false;

  constructor(maxChars: number = GREP_MAX_LINE_CHARS) {
    this.#maxChars = Math.max(1, Math.floor(maxChars));
    this.#maxColumns = maxColumnsFor(this.#maxChars);
    this.#keepBytes = this.#maxColumns + 64;
  }

  push(chunk: Uint8Array): GrepLine[] {
    const out: GrepLine[] = [];
    let at = 0;
    while (at < chunk.length) at = this.#step(chunk, at, out);
    return out;
  }

  end(): GrepLine[] {
    // rg ends every line with \n: a last line without one was cut off (rg was stopped), not whole.
    this.#reset();
    return [];
  }

  /** Consumes bytes of `chunk` from `at` in the current state; returns where it stopped. */
  #step(chunk: Uint8Array, at: number, out: GrepLine[]): number {
    switch (this.#state) {
      case "head":
        return this.#readHead(chunk, at);
      case "number":
        return this.#readNumber(chunk, at);
      case "text": {
        const end = chunk.indexOf(LF, at);
        if (end !== -1 && this.#textLength === 0 && end - at <= this.#keepBytes) {
          // The whole line is in this chunk (the usual case): read in place, no copy.
          this.#emit(out, chunk.subarray(at, end));
          this.#reset();
          return end + 1;
        }
        this.#keepText(chunk.subarray(at, end === -1 ? chunk.length : end));
        if (end === -1) return chunk.length;
        this.#emit(out, concat(this.#text, this.#textLength));
        this.#reset();
        return end + 1;
      }
      case "skip": {
        const end = chunk.indexOf(LF, at);
        if (end === -1) return chunk.length;
        this.#reset();
        return end + 1;
      }
    }
  }

  /**
   * The start of a record: bytes up to the NUL that ends a path. A line that ends before any NUL
   * is a notice (skipped) unless it is not one, when it is the first part of a path holding `\n`.
   */
  #readHead(chunk: Uint8Array, at: number): number {
    let from = at;
    for (;;) {
      const nul = chunk.indexOf(NUL, from);
      const lf = chunk.indexOf(LF, from);
      if (lf !== -1 && (nul === -1 || lf < nul)) {
        const line = this.#headText(chunk.subarray(at, lf));
        if (NOTICE.test(line)) {
          this.#reset();
          return lf + 1;
        }
        from = lf + 1;
        continue;
      }
      if (nul === -1) {
        this.#holdHead(chunk.subarray(at));
        if (this.#headLength > MAX_HEAD_BYTES) this.#state = "skip";
        return chunk.length;
      }
      const tail = chunk.subarray(at, nul);
      this.#path = this.#headLength === 0 ? utf8.decode(tail) : decode([...this.#headBytes, tail]);
      this.#headBytes = [];
      this.#headLength = 0;
      this.#state = "number";
      return nul + 1;
    }
  }

  /** The held head plus `tail`, as text for the notice test (one character per byte). */
  #headText(tail: Uint8Array): string {
    return [...this.#headBytes, tail].map((part) => bytewise.decode(part)).join("");
  }

  #holdHead(bytes: Uint8Array): void {
    this.#headBytes.push(bytes.slice());
    this.#headLength += bytes.length;
  }

  #readNumber(chunk: Uint8Array, at: number): number {
    for (let i = at; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (byte >= 0x30 && byte <= 0x39 && this.#lineNumber < Number.MAX_SAFE_INTEGER / 10) {
        this.#lineNumber = this.#lineNumber * 10 + (byte - 0x30);
        continue;
      }
      if (byte === COLON || byte === DASH) {
        this.#type = byte === COLON ? "match" : "context";
        this.#state = "text";
      } else {
        // Not a result line after all: drop it.
        this.#state = byte === LF ? "head" : "skip";
        if (byte === LF) this.#reset();
      }
      return i + 1;
    }
    return chunk.length;
  }

  #keepText(bytes: Uint8Array): void {
    const room = this.#keepBytes - this.#textLength;
    if (bytes.length > room) this.#dropped = true;
    const kept = bytes.length > room ? bytes.subarray(0, Math.max(0, room)) : bytes;
    if (kept.length === 0) return;
    this.#text.push(kept.slice());
    this.#textLength += kept.length;
  }

  /** Adds the record whose text is `text` (the kept bytes of the line). */
  #emit(out: GrepLine[], text: Uint8Array): void {
    let bytes = text;
    // Cut where a character starts, so the kept bytes decode without a stray replacement character.
    if (this.#dropped) bytes = bytes.subarray(0, wholeUtf8Length(bytes));
    let line = utf8.decode(bytes);
    let truncated = this.#dropped;
    // rg cut the line (see PREVIEW_SUFFIX): an uncut line is never longer than --max-columns
    // with its \n, a cut one always is, so a line that merely ends like the suffix stays whole.
    if (!truncated && bytes.length + 1 > this.#maxColumns && PREVIEW_SUFFIX.test(line)) {
      line = line.replace(PREVIEW_SUFFIX, "");
      truncated = true;
    }
    if (!truncated && line.endsWith("\r")) line = line.slice(0, -1);
    if (line.length > this.#maxChars) {
      line = sliceChars(line, this.#maxChars);
      truncated = true;
    }
    out.push({ type: this.#type, path: this.#path, lineNumber: this.#lineNumber, line, truncated });
  }

  #reset(): void {
    this.#state = "head";
    if (this.#headLength > 0) this.#headBytes = [];
    this.#headLength = 0;
    this.#path = "";
    this.#lineNumber = 0;
    if (this.#textLength > 0) this.#text = [];
    this.#textLength = 0;
    this.#dropped = false;
  }
}

const utf8 = new TextDecoder();
const bytewise = new TextDecoder("latin1");

function decode(parts: Uint8Array[]): string {
  if (parts.length === 1) return utf8.decode(parts[0]);
  return utf8.decode(
    concat(
      parts,
      parts.reduce((sum, part) => sum + part.length, 0),
    ),
  );
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Length of `bytes` without an incomplete UTF-8 character at its end. */
function wholeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** The first `max` UTF-16 units of `text`, one fewer when that would split a surrogate pair. */
function sliceChars(text: string, max: number): string {
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
