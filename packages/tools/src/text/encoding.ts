/**
 * Text encodings the file tools read and write back unchanged: UTF-8 (with or without BOM),
 * UTF-16 LE and BE (with a BOM, or recognised without one by their zero bytes).
 */

/** Encodings a file may be decoded from and written back in. */
export type TextEncodingName = "utf8" | "utf16le" | "utf16be";

/** What {@link decodeText} returns. */
export interface DecodedText {
  /** The text, BOM removed. */
  text: string;
  encoding: TextEncodingName;
  /** The file started with a byte order mark (written back by {@link encodeText}). */
  hasBom: boolean;
  /**
   * The bytes were not valid in `encoding` (invalid UTF-8 sequences were replaced by U+FFFD),
   * so encoding `text` again would not give the same bytes. Edits must refuse such a file.
   */
  lossy: boolean;
}

const BOM_UTF8 = [0xef, 0xbb, 0xbf];

/** The encoding's name as the tools say it to the model ("UTF-8", "UTF-16 LE", "UTF-16 BE"). */
export function encodingLabel(encoding: TextEncodingName): string {
  return encoding === "utf8" ? "UTF-8" : encoding === "utf16le" ? "UTF-16 LE" : "UTF-16 BE";
}

/** How many leading bytes {@link guessBomlessUtf16} looks at. */
const UTF16_SAMPLE_BYTES = 4096;

/** Encoding and BOM length from the first bytes, or `null` when there is no BOM. */
export function detectBom(bytes: Uint8Array): { encoding: TextEncodingName; length: number } | null {
  if (bytes[0] === BOM_UTF8[0] && bytes[1] === BOM_UTF8[1] && bytes[2] === BOM_UTF8[2]) {
    return { encoding: "utf8", length: 3 };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf16le", length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf16be", length: 2 };
  return null;
}

/**
 * Recognises UTF-16 without a BOM the way editors do: text that is mostly ASCII has a zero in
 * every other byte. Returns `null` when the sample does not look like that.
 */
export function guessBomlessUtf16(bytes: Uint8Array): TextEncodingName | null {
  const length = Math.min(bytes.length, UTF16_SAMPLE_BYTES) & ~1;
  if (length < 4) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < length; i += 2) {
    if (bytes[i] === 0) zeroEven++;
    if (bytes[i + 1] === 0) zeroOdd++;
  }
  const pairs = length / 2;
  if (zeroOdd >= pairs * 0.7 && zeroEven <= pairs * 0.1) return "utf16le";
  if (zeroEven >= pairs * 0.7 && zeroOdd <= pairs * 0.1) return "utf16be";
  return null;
}

/**
 * Decodes file bytes: BOM first, then a BOM-less UTF-16 guess, else UTF-8. Invalid UTF-8 is
 * replaced by U+FFFD and reported as `lossy` (never thrown), so read can still show the file.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const bom = detectBom(bytes);
  const encoding = bom?.encoding ?? guessBomlessUtf16(bytes) ?? "utf8";
  const body = bom ? bytes.subarray(bom.length) : bytes;
  const label = encoding === "utf8" ? "utf-8" : encoding === "utf16le" ? "utf-16le" : "utf-16be";
  try {
    const text = new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(body);
    return { text, encoding, hasBom: bom !== null, lossy: false };
  } catch {
    const text = new TextDecoder(label, { fatal: false, ignoreBOM: true }).decode(body);
    return { text, encoding, hasBom: bom !== null, lossy: true };
  }
}

/** Encodes `text` in `encoding`, with the BOM when `hasBom`. The inverse of {@link decodeText}. */
export function encodeText(text: string, encoding: TextEncodingName, hasBom: boolean): Uint8Array {
  if (encoding === "utf8") {
    const body = new TextEncoder().encode(text);
    if (!hasBom) return body;
    const out = new Uint8Array(body.length + 3);
    out.set(BOM_UTF8, 0);
    out.set(body, 3);
    return out;
  }
  const offset = hasBom ? 2 : 0;
  const out = new Uint8Array(offset + text.length * 2);
  const bigEndian = encoding === "utf16be";
  if (hasBom) {
    out[0] = bigEndian ? 0xfe : 0xff;
    out[1] = bigEndian ? 0xff : 0xfe;
  }
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const high = unit >> 8;
    const low = unit & 0xff;
    out[offset + i * 2] = bigEndian ? high : low;
    out[offset + i * 2 + 1] = bigEndian ? low : high;
  }
  return out;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True when `text` holds a lone surrogate (e.g. from a JSON `"\ud800"` escape): UTF-8 cannot
 * store it (it would be written as U+FFFD), so a write in UTF-8 must refuse instead.
 */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
