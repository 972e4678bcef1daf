/**
 * `@tackle/tools/text`: the text handling every tool shares, for hosts and custom tools that
 * show output to a model the same way: truncation by lines and bytes, encodings, file-type
 * sniffing, sanitising and redacting untrusted output, line numbers.
 */
export { formatBytes } from "../defaults.js";
export { redactSecrets } from "../redaction/engine.js";
export type { RedactionKind } from "../redaction/kinds.js";
export { REDACTION_KINDS } from "../redaction/kinds.js";
export type { PlaceholderExpansion, PlaceholderRefusal, RevealedSecret } from "../redaction/placeholders.js";
export { expandRedactedPlaceholders } from "../redaction/placeholders.js";
export type { RedactionSource } from "../redaction/source.js";
export { redactionSourceOf } from "../redaction/source.js";
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
