export type { Defaults } from "./defaults.js";
export { DEFAULTS, formatBytes } from "./defaults.js";
export type { LineTruncation, TruncatedBy, TruncateOptions, TruncationResult } from "./truncate.js";
export {
  sliceUtf8End,
  sliceUtf8Start,
  truncateHead,
  truncateLine,
  truncateTail,
  utf8ByteLength,
} from "./truncate.js";
