import type { GrepEvent } from "../types.js";

/** rg gives a path or a line as `{text}` when it is UTF-8 and as base64 `{bytes}` when not. */
interface RgText {
  text?: string;
  bytes?: string;
}

/**
 * One `rg --json` line as a `GrepEvent`: `match` and `context` records become events (path
 * request-relative, POSIX; line without its `\n` or `\r\n`; bytes that are not UTF-8 decoded
 * with replacement characters); `begin`, `end` and `summary` records give `undefined`.
 */
export function parseGrepRecord(record: string, platform: RipgrepPlatform = "posix"): GrepEvent | undefined {
  // Cheap test first: most records of a large search are matches, the rest need no parsing.
  if (!record.startsWith('{"type":"match"') && !record.startsWith('{"type":"context"')) return undefined;
  const { type, data } = JSON.parse(record) as {
    type: "match" | "context";
    data: { path: RgText; lines: RgText; line_number: number };
  };
  const line = decodeText(data.lines).replace(/\r?\n$/, "");
  return {
    type,
    path: ripgrepRelativePath(decodeText(data.path), platform),
    lineNumber: data.line_number,
    line,
  };
}

/** Where rg ran: on Windows it prints `\\` separators, which a POSIX file name may hold. */
export type RipgrepPlatform = "posix" | "win32";

/**
 * rg's path for `./x/y` is `x/y`, request-relative, POSIX separators. A file searched by name
 * keeps its name.
 */
export function ripgrepRelativePath(rgPath: string, platform: RipgrepPlatform = "posix"): string {
  const posix = platform === "win32" ? rgPath.replaceAll("\\", "/") : rgPath;
  return posix.startsWith("./") ? posix.slice(2) : posix;
}

const utf8 = new TextDecoder();

function decodeText(value: RgText): string {
  if (value.text !== undefined) return value.text;
  const binary = atob(value.bytes ?? "");
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return utf8.decode(bytes);
}
