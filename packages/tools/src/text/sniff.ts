/**
 * File type sniffing by magic bytes. The `file-type` package needs Node 22, so this is a small
 * table of the signatures the tools must tell apart: images they can show, and binary formats
 * they must refuse by name.
 */
import { detectBom, guessBomlessUtf16 } from "./encoding.js";

/** Images the read tool returns as image content. */
export type ImageFormat = "png" | "jpeg" | "gif" | "webp";

/** What {@link sniffFileType} found. */
export type SniffResult =
  | { kind: "image"; format: ImageFormat; mimeType: string }
  | { kind: "binary"; description: string }
  | { kind: "text" };

/** How many leading bytes are enough for {@link sniffFileType}. */
export const SNIFF_BYTES = 8192;

interface Signature {
  offset: number;
  bytes: readonly number[];
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const IMAGES: { format: ImageFormat; mimeType: string; match: Signature[] }[] = [
  {
    format: "png",
    mimeType: "image/png",
    match: [{ offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }],
  },
  { format: "jpeg", mimeType: "image/jpeg", match: [{ offset: 0, bytes: [0xff, 0xd8, 0xff] }] },
  { format: "gif", mimeType: "image/gif", match: [{ offset: 0, bytes: ascii("GIF8") }] },
  {
    format: "webp",
    mimeType: "image/webp",
    match: [
      { offset: 0, bytes: ascii("RIFF") },
      { offset: 8, bytes: ascii("WEBP") },
    ],
  },
];

/**
 * Binary formats by signature. A `weak` signature (two or three printable bytes) could begin a
 * text file ("BMW", "MZ-80"), so it only names a file whose content already looks binary.
 */
const BINARIES: { description: string; match: Signature[]; weak?: boolean }[] = [
  { description: "ELF executable", match: [{ offset: 0, bytes: [0x7f, 0x45, 0x4c, 0x46] }] },
  { description: "PDF document", match: [{ offset: 0, bytes: ascii("%PDF-") }] },
  { description: "zip archive", match: [{ offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04] }] },
  { description: "zip archive", match: [{ offset: 0, bytes: [0x50, 0x4b, 0x05, 0x06] }] },
  { description: "gzip archive", match: [{ offset: 0, bytes: [0x1f, 0x8b] }] },
  { description: "bzip2 archive", match: [{ offset: 0, bytes: ascii("BZh") }], weak: true },
  { description: "xz archive", match: [{ offset: 0, bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] }] },
  { description: "zstd archive", match: [{ offset: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd] }] },
  { description: "7z archive", match: [{ offset: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] }] },
  { description: "tar archive", match: [{ offset: 257, bytes: ascii("ustar") }] },
  { description: "Mach-O executable", match: [{ offset: 0, bytes: [0xcf, 0xfa, 0xed, 0xfe] }] },
  { description: "Mach-O executable", match: [{ offset: 0, bytes: [0xce, 0xfa, 0xed, 0xfe] }] },
  { description: "Mach-O executable", match: [{ offset: 0, bytes: [0xfe, 0xed, 0xfa, 0xcf] }] },
  {
    description: "Mach-O universal binary or Java class",
    match: [{ offset: 0, bytes: [0xca, 0xfe, 0xba, 0xbe] }],
  },
  { description: "Windows executable", match: [{ offset: 0, bytes: ascii("MZ") }], weak: true },
  { description: "WebAssembly module", match: [{ offset: 0, bytes: [0x00, 0x61, 0x73, 0x6d] }] },
  { description: "SQLite database", match: [{ offset: 0, bytes: ascii("SQLite format 3\0") }] },
  { description: "BMP image", match: [{ offset: 0, bytes: ascii("BM") }], weak: true },
  { description: "TIFF image", match: [{ offset: 0, bytes: [0x49, 0x49, 0x2a, 0x00] }] },
  { description: "TIFF image", match: [{ offset: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] }] },
  { description: "ICO image", match: [{ offset: 0, bytes: [0x00, 0x00, 0x01, 0x00] }] },
  {
    description: "WAV audio",
    match: [
      { offset: 0, bytes: ascii("RIFF") },
      { offset: 8, bytes: ascii("WAVE") },
    ],
  },
  { description: "MP3 audio", match: [{ offset: 0, bytes: ascii("ID3") }], weak: true },
  { description: "Ogg media", match: [{ offset: 0, bytes: ascii("OggS") }] },
  { description: "FLAC audio", match: [{ offset: 0, bytes: ascii("fLaC") }] },
  { description: "MP4/QuickTime media", match: [{ offset: 4, bytes: ascii("ftyp") }] },
  { description: "Java archive or class", match: [{ offset: 0, bytes: [0xca, 0xfe, 0xd0, 0x0d] }] },
];

function matches(bytes: Uint8Array, signatures: Signature[]): boolean {
  return signatures.every((sig) => sig.bytes.every((b, i) => bytes[sig.offset + i] === b));
}

/** Control bytes other than tab, newline, vertical tab, form feed, carriage return and escape. */
function isSuspectControl(byte: number): boolean {
  return (
    (byte < 0x20 &&
      byte !== 0x09 &&
      byte !== 0x0a &&
      byte !== 0x0b &&
      byte !== 0x0c &&
      byte !== 0x0d &&
      byte !== 0x1b) ||
    byte === 0x7f
  );
}

/**
 * Classifies a file from its first bytes (pass at least {@link SNIFF_BYTES} when the file is
 * that long): an image the tools can show, a binary format named by its magic bytes ("binary
 * data" when only the content gives it away: NUL bytes or many control bytes), or text.
 * UTF-16 text (zeros in every other byte) is text, not binary.
 */
export function sniffFileType(bytes: Uint8Array): SniffResult {
  for (const image of IMAGES) {
    if (matches(bytes, image.match)) return { kind: "image", format: image.format, mimeType: image.mimeType };
  }
  const bom = detectBom(bytes);
  if (bom) return { kind: "text" };
  for (const binary of BINARIES) {
    if (!binary.weak && matches(bytes, binary.match))
      return { kind: "binary", description: binary.description };
  }
  if (guessBomlessUtf16(bytes)) return { kind: "text" };
  if (!looksBinary(bytes)) return { kind: "text" };
  const named = BINARIES.find((binary) => binary.weak && matches(bytes, binary.match));
  return { kind: "binary", description: named?.description ?? "binary data" };
}

/** NUL bytes, or more than one byte in ten a control byte that text does not use. */
function looksBinary(bytes: Uint8Array): boolean {
  const length = Math.min(bytes.length, SNIFF_BYTES);
  let suspect = 0;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i]!;
    if (byte === 0) return true;
    if (isSuspectControl(byte)) suspect++;
  }
  return length > 0 && suspect / length > 0.1;
}
