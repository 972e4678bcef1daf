/**
 * Streams a text file once with constant memory: keeps the lines of a window (from a 1-based
 * line, up to a line and byte budget), counts every line of the file exactly, hashes the bytes
 * the window came from and, unless told not to, all of it. Past the window no content is kept;
 * UTF-8 lines are counted on raw bytes.
 */
import { createHash } from "node:crypto";
import { sliceUtf8Start, utf8ByteLength } from "../truncate.js";
import { detectBom, guessBomlessUtf16, type TextEncodingName } from "./encoding.js";
import { countNewlines, type NewlineCounter } from "./newline-count.js";

/** Options for {@link readLineWindow}. */
export interface LineWindowOptions {
  /** First line to keep (1-based). */
  startLine: number;
  /** Most lines to keep. */
  maxLines: number;
  /** Stop keeping lines once their UTF-8 bytes (plus newlines) exceed this. */
  maxBytes: number;
  /** A longer line is kept only up to this many UTF-8 bytes and reported in `cutLines`. */
  maxLineBytes: number;
  /** Hash every byte of the file (`sha256`); false leaves it to `window` (default true). */
  hashWholeFile?: boolean;
  /**
   * Counts the newlines of chunks outside the window; the reader's own counter when the chunks
   * were read into its memory (see `NewlineCounter.chunkMemory`). Default: a shared one.
   */
  newlines?: NewlineCounter;
}

/**
 * The bytes the kept lines were decoded from, as a byte range of the file and its hash: from the
 * first kept line's start to the end of the chunk in which keeping stopped (the range depends on
 * the chunks, so it is stated, not implied).
 */
export interface WindowBytes {
  start: number;
  end: number;
  sha256: string;
}

/** What {@link readLineWindow} found. */
export interface LineWindow {
  /** Kept lines, the first being `startLine`; `\r` of CRLF removed, BOM removed. */
  lines: string[];
  /** Line number -> full length in UTF-16 code units, for lines cut at `maxLineBytes`. */
  cutLines: Map<number, number>;
  /** Exact line count of the file (a final newline ends the last line). */
  totalLines: number;
  /** Bytes of the file. */
  totalBytes: number;
  /** Hex sha256 of every byte of the file (undefined with `hashWholeFile: false`). */
  sha256: string | undefined;
  /** Where the kept lines came from, hashed. */
  window: WindowBytes;
  encoding: TextEncodingName;
  hasBom: boolean;
  /** Invalid UTF-8 was replaced by U+FFFD in the kept lines. */
  lossy: boolean;
}

const NEWLINE = 0x0a;

/**
 * Reads `head` (the bytes already taken from the stream, e.g. for sniffing) and then `rest`.
 * Memory: the kept window, one chunk, and one partial line capped at `maxLineBytes`.
 */
export async function readLineWindow(
  head: Uint8Array,
  rest: AsyncIterable<Uint8Array>,
  options: LineWindowOptions,
): Promise<LineWindow> {
  const bom = detectBom(head);
  const encoding = bom?.encoding ?? guessBomlessUtf16(head) ?? "utf8";
  const hash = options.hashWholeFile === false ? undefined : createHash("sha256");
  const windowHash = createHash("sha256");
  let windowStart = -1;
  let windowEnd = 0;
  const lines: string[] = [];
  const cutLines = new Map<number, number>();
  const label = encoding === "utf8" ? "utf-8" : encoding === "utf16le" ? "utf-16le" : "utf-16be";
  let decoder = new TextDecoder(label, { fatal: true, ignoreBOM: true });
  let lossy = false;
  let totalBytes = 0;
  let lineNumber = 1; // number of the line being read
  let partial = "";
  let partialChars = 0;
  let partialBytes = 0;
  let keptBytes = 0;
  let collecting = true;
  let lastWasNewline = false;
  let sawContent = false;
  const budget = options.maxLineBytes;
  const counter = options.newlines;

  const decode = (bytes: Uint8Array): string => {
    try {
      return decoder.decode(bytes, { stream: true });
    } catch {
      lossy = true;
      decoder = new TextDecoder(label, { fatal: false, ignoreBOM: true });
      return decoder.decode(bytes, { stream: true });
    }
  };

  // A file that ends inside a character (a cut UTF-8 sequence, an odd UTF-16 byte) makes the
  // fatal decoder throw on flush: show U+FFFD and say the file is lossy instead of failing.
  const flush = (): string => {
    try {
      return decoder.decode();
    } catch {
      lossy = true;
      return "\ufffd";
    }
  };

  const appendToLine = (piece: string) => {
    partialChars += piece.length;
    if (partialBytes > budget) return;
    partial += piece;
    partialBytes += utf8ByteLength(piece);
  };

  const endLine = () => {
    if (lineNumber >= options.startLine && collecting) {
      let line = partial.endsWith("\r") ? partial.slice(0, -1) : partial;
      if (partialBytes > budget) {
        line = sliceUtf8Start(line, budget);
        cutLines.set(lineNumber, partialChars);
      }
      lines.push(line);
      keptBytes += utf8ByteLength(line) + 1;
      if (lines.length >= options.maxLines || keptBytes > options.maxBytes) collecting = false;
    }
    partial = "";
    partialChars = 0;
    partialBytes = 0;
    lineNumber++;
  };

  const consumeText = (text: string) => {
    let from = 0;
    while (from <= text.length) {
      const nl = text.indexOf("\n", from);
      if (!collecting) {
        // Counting only: no content kept.
        if (nl === -1) break;
        lineNumber++;
        from = nl + 1;
        continue;
      }
      const inWindow = lineNumber >= options.startLine;
      if (nl === -1) {
        if (inWindow) appendToLine(text.slice(from));
        break;
      }
      if (inWindow) appendToLine(text.slice(from, nl));
      endLine();
      from = nl + 1;
    }
  };

  const consumeBytes = (chunk: Uint8Array) => {
    if (chunk.length === 0) return;
    hash?.update(chunk);
    const chunkStart = totalBytes;
    totalBytes += chunk.length;
    sawContent = true;
    let rest = chunk;
    if (encoding === "utf8" && (!collecting || lineNumber < options.startLine)) {
      // Before and after the window, UTF-8 lines are counted on raw bytes (0x0a never occurs
      // inside a multi-byte sequence), without decoding. Stop at the window's first line.
      let from = chunk.length;
      // A chunk wholly before the window or after it is counted in bulk (see countNewlines).
      const newlines = counter ? counter.count(chunk) : countNewlines(chunk);
      if (!collecting || lineNumber + newlines < options.startLine) {
        lineNumber += newlines;
      } else {
        const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        let at = buffer.indexOf(NEWLINE);
        while (at !== -1) {
          lineNumber++;
          if (lineNumber >= options.startLine) {
            from = at + 1;
            break;
          }
          at = buffer.indexOf(NEWLINE, at + 1);
        }
      }
      lastWasNewline = chunk[chunk.length - 1] === NEWLINE;
      if (from >= chunk.length) return;
      rest = chunk.subarray(from);
    }
    if (collecting) {
      if (windowStart < 0) windowStart = chunkStart + (chunk.length - rest.length);
      windowHash.update(rest);
      windowEnd = totalBytes;
    }
    const text = decode(rest);
    if (text.length > 0) lastWasNewline = text.endsWith("\n");
    consumeText(text);
  };

  const body = bom ? head.subarray(bom.length) : head;
  if (bom) {
    hash?.update(head.subarray(0, bom.length));
    totalBytes += bom.length;
  }
  consumeBytes(body);
  for await (const chunk of rest) consumeBytes(chunk);
  if (collecting) {
    const tail = flush();
    if (tail.length > 0) {
      lastWasNewline = tail.endsWith("\n");
      consumeText(tail);
    }
  }
  // The last line has no newline: it still counts (and is kept when in the window).
  const endsOpen = sawContent && !lastWasNewline;
  if (endsOpen && collecting && lineNumber >= options.startLine) endLine();
  else if (endsOpen) lineNumber++;
  return {
    lines,
    cutLines,
    totalLines: lineNumber - 1,
    totalBytes,
    sha256: hash?.digest("hex"),
    window: { start: Math.max(windowStart, 0), end: windowEnd, sha256: windowHash.digest("hex") },
    encoding,
    hasBom: bom !== null,
    lossy,
  };
}
