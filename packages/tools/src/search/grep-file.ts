import { type GrepEvent, isOperationError, type Operations } from "@tackle/operations";
import { truncateLine } from "../truncate.js";

/** Bytes ripgrep's line buffer holds before it grows (its binary check runs per fill). */
const BUFFER_CAPACITY = 64 * 1024;

/**
 * Files up to this size are read in one `readFile` call (one round trip, no stream set-up);
 * larger ones are streamed through `openRead` so memory stays constant.
 */
const WHOLE_READ_MAX_BYTES = 1024 * 1024;

/** What {@link grepFile} needs to search one file. */
export interface GrepFileRequest {
  /** Absolute path to read. */
  abs: string;
  /** Path to put in the events (relative, POSIX). */
  rel: string;
  regex: RegExp;
  /** Context lines before and after each match. */
  context: number;
  /** Stop after this many matches (after-context of the last one is still emitted). */
  maxMatches: number;
  /** Characters of a line an event carries; a longer line is cut and flagged `truncated`. */
  maxLineLength: number;
  signal?: AbortSignal;
}

/**
 * Searches one file line by line and returns its events in line order. A small file is read
 * whole; a larger one is streamed through `openRead` with constant memory. Like ripgrep on a file found by a directory walk:
 * - a UTF-8 byte order mark is dropped and a UTF-16 file with a byte order mark is decoded;
 * - a NUL byte marks binary data: the search stops there and keeps only matches from before the
 *   64 KiB buffer fill that held it (a NUL in the first 64 KiB means no result at all);
 * - lines end at `\n`; a `\r` before it stays part of the line while matching (so `x$` does not
 *   match `x\r\n`, as in ripgrep) and is dropped from the event, as the contract asks.
 */
export async function grepFile(
  ops: Pick<Operations, "openRead" | "readFile">,
  request: GrepFileRequest,
): Promise<GrepEvent[]> {
  const collector = new LineMatcher(request);
  const iterator = await openChunks(ops, request);
  try {
    const first = await readPrefix(iterator);
    const encoding = sniffEncoding(first.bytes);
    if (encoding === "utf-16le" || encoding === "utf-16be") {
      await searchUtf16(encoding, first, iterator, collector);
    } else {
      await searchUtf8(first, iterator, collector, encoding === "utf-8-bom" ? 3 : 0);
    }
  } finally {
    // Stop the underlying read when the search ended early (binary data, enough matches).
    await iterator.return?.();
  }
  return collector.events;
}

/** The file as chunks: one chunk for a small file, the stream for a large one. */
async function openChunks(
  ops: Pick<Operations, "openRead" | "readFile">,
  request: GrepFileRequest,
): Promise<AsyncIterator<Uint8Array>> {
  const { signal } = request;
  try {
    const bytes = await ops.readFile(request.abs, { signal, maxBytes: WHOLE_READ_MAX_BYTES });
    return (async function* () {
      yield bytes;
    })();
  } catch (error) {
    if (!isOperationError(error, "too_large")) throw error;
    return ops.openRead(request.abs, { signal })[Symbol.asyncIterator]();
  }
}

type Encoding = "utf-8" | "utf-8-bom" | "utf-16le" | "utf-16be";

function sniffEncoding(bytes: Uint8Array): Encoding {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8-bom";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return "utf-8";
}

interface Prefix {
  bytes: Uint8Array;
  done: boolean;
}

/** Reads at least 3 bytes (enough to sniff a byte order mark) unless the file is shorter. */
async function readPrefix(iterator: AsyncIterator<Uint8Array>): Promise<Prefix> {
  const parts: Uint8Array[] = [];
  let length = 0;
  while (length < 3) {
    const next = await iterator.next();
    if (next.done) return { bytes: concat(parts, length), done: true };
    parts.push(next.value);
    length += next.value.length;
  }
  return { bytes: concat(parts, length), done: false };
}

/**
 * Emulates ripgrep's line buffer: each fill tops the buffer up to its capacity; if the new bytes
 * hold a NUL, the search stops without searching that fill. Complete lines are searched, the
 * partial last line waits for the next fill. A line longer than the buffer doubles it.
 */
async function searchUtf8(
  first: Prefix,
  iterator: AsyncIterator<Uint8Array>,
  matcher: LineMatcher,
  skip: number,
) {
  const decoder = new TextDecoder("utf-8");
  let pending: Uint8Array[] = [first.bytes.subarray(skip)];
  let pendingLength = pending[0]!.length;
  let done = first.done;
  let leftover: Uint8Array = new Uint8Array(0);
  let capacity = BUFFER_CAPACITY;
  for (;;) {
    while (leftover.length >= capacity) capacity *= 2;
    const want = capacity - leftover.length;
    while (pendingLength < want && !done) {
      const next = await iterator.next();
      if (next.done) done = true;
      else {
        pending.push(next.value);
        pendingLength += next.value.length;
      }
    }
    const available = concat(pending, pendingLength);
    const fresh = available.subarray(0, Math.min(want, available.length));
    const rest = available.subarray(fresh.length);
    pending = rest.length > 0 ? [rest] : [];
    pendingLength = rest.length;
    if (fresh.includes(0)) return;
    const atEnd = done && pendingLength === 0;
    const buffer = leftover.length === 0 ? fresh : concat([leftover, fresh], leftover.length + fresh.length);
    const lastNewline = buffer.lastIndexOf(0x0a);
    const complete = atEnd ? buffer.length : lastNewline + 1;
    if (complete > 0) {
      const text = decoder.decode(buffer.subarray(0, complete));
      if (!matcher.pushText(text, atEnd)) return;
    }
    if (atEnd) return;
    leftover = buffer.slice(complete);
  }
}

async function searchUtf16(
  encoding: "utf-16le" | "utf-16be",
  first: Prefix,
  iterator: AsyncIterator<Uint8Array>,
  matcher: LineMatcher,
) {
  // TextDecoder drops the byte order mark itself.
  const decoder = new TextDecoder(encoding);
  let carry = decoder.decode(first.bytes, { stream: !first.done });
  let done = first.done;
  while (!done) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      carry += decoder.decode();
    } else carry += decoder.decode(next.value, { stream: true });
    if (carry.includes("\u0000")) return;
    const cut = done ? carry.length : carry.lastIndexOf("\n") + 1;
    if (cut > 0 && !matcher.pushText(carry.slice(0, cut), done)) return;
    carry = carry.slice(cut);
  }
  if (first.done && !carry.includes("\u0000")) matcher.pushText(carry, true);
}

/** Matches complete lines and keeps before/after context, emitting events in line order. */
class LineMatcher {
  readonly events: GrepEvent[] = [];
  private lineNumber = 0;
  private matches = 0;
  private afterLeft = 0;
  private lastEmitted = 0;
  private readonly before: { lineNumber: number; line: string }[] = [];

  constructor(private readonly request: GrepFileRequest) {}

  /**
   * Takes text made of complete lines (the last may lack its `\n` only at the end of the file).
   * Returns false once nothing more is wanted from this file.
   */
  pushText(text: string, atEnd: boolean): boolean {
    const { regex, context } = this.request;
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf("\n", start);
      if (end < 0) {
        if (!atEnd) break;
        end = text.length;
      }
      const line = text.slice(start, end);
      start = end + 1;
      this.lineNumber++;
      if (this.matches < this.request.maxMatches && regex.test(line)) {
        for (const held of this.before) this.emit("context", held.lineNumber, held.line);
        this.before.length = 0;
        this.emit("match", this.lineNumber, line);
        this.matches++;
        this.afterLeft = context;
        continue;
      }
      if (this.afterLeft > 0) {
        this.afterLeft--;
        this.emit("context", this.lineNumber, line);
        continue;
      }
      if (this.matches >= this.request.maxMatches) return false;
      if (context > 0) {
        this.before.push({ lineNumber: this.lineNumber, line });
        if (this.before.length > context) this.before.shift();
      }
    }
    return this.matches < this.request.maxMatches || this.afterLeft > 0;
  }

  private emit(type: "match" | "context", lineNumber: number, line: string) {
    if (lineNumber <= this.lastEmitted) return;
    this.lastEmitted = lineNumber;
    // Events carry the line without its terminator, `\r` of a CRLF included (the contract).
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    const cut = truncateLine(text, this.request.maxLineLength);
    const event: GrepEvent = {
      type,
      path: this.request.rel,
      lineNumber,
      // A copy: a slice would keep the whole decoded buffer (a many-MB line) alive with the event.
      line: cut.truncated ? detachedCopy(cut.text) : text,
    };
    if (cut.truncated) event.truncated = true;
    this.events.push(event);
  }
}

/** `text` in a string of its own (V8 keeps the parent of a long slice alive). */
function detachedCopy(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
