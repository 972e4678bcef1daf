/**
 * `@tackle/tools/text`: the text handling every tool shares, for hosts and custom tools that
 * show output to a model the same way: truncation by lines and bytes, encodings, file-type
 * sniffing, sanitising and redacting untrusted output, line numbers.
 */

export type {
  PlaceholderExpansion,
  PlaceholderRefusal,
  RedactionKind,
  RedactionSource,
  RevealedSecret,
} from "@tackle/session";
export {
  expandRedactedPlaceholders,
  REDACTION_KINDS,
  redactionSourceOf,
  redactSecrets,
} from "@tackle/session";
export { formatBytes } from "../defaults.js";
export { collapseCarriageReturns, markToolOutput, sanitizeOutput, stripControl } from "../shell/sanitize.js";
export type { LineTruncation, TruncatedBy, TruncateOptions, TruncationResult } from "../truncate.js";
export {
  sliceUtf8End,
  sliceUtf8Start,
  truncateHead,
  truncateLine,
  truncateTail,
  utf8ByteLength,
} from "../truncate.js";
export type { DecodedText, TextEncodingName } from "./encoding.js";
export { decodeText, encodeText } from "./encoding.js";
export { formatNumberedLines, LINE_NUMBER_PREFIX } from "./line-numbers.js";
export type { ImageFormat, SniffResult } from "./sniff.js";
export { sniffFileType } from "./sniff.js";
