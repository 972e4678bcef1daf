export type { ToolContextOptions } from "./context/create-tool-context.js";
export { createToolContext, getFileMutationQueue } from "./context/create-tool-context.js";
export { createFileMutationQueue } from "./context/mutation-queue.js";
export { assertNotStale, createReadLedger, recordRead, sha256Hex } from "./context/read-ledger.js";
export type { Defaults } from "./defaults.js";
export { DEFAULTS, formatBytes } from "./defaults.js";
export type { FuzzyKind } from "./edit/normalize.js";
export type { EditOutcome, EditPlan, EditRequest, MatcherName } from "./edit/plan.js";
export { planEdits } from "./edit/plan.js";
export { repairEditArguments } from "./edit/repair-arguments.js";
export type {
  CreateToolsOptions,
  PerToolOptions,
  ToolDefinitionByName,
  ToolName,
  ToolOptionsByName,
} from "./factories.js";
export {
  ALL_TOOL_NAMES,
  CODING_TOOL_NAMES,
  createAllTools,
  createAvailableTools,
  createCodingTools,
  createReadOnlyTools,
  createTool,
  createToolDefinition,
  READ_ONLY_TOOL_NAMES,
} from "./factories.js";
export { findNearMisses } from "./path/near-miss.js";
export { normalizeModelPath } from "./path/normalize.js";
export { resolveRealPath } from "./path/real-path.js";
export { recheckWriteTarget } from "./path/recheck.js";
export type { WorkspacePolicyOptions } from "./path/workspace-policy.js";
export { createWorkspacePolicy, resolveWorkspacePath } from "./path/workspace-policy.js";
export type { DecodedText, TextEncodingName } from "./text/encoding.js";
export { decodeText, encodeText } from "./text/encoding.js";
export { formatNumberedLines, LINE_NUMBER_PREFIX } from "./text/line-numbers.js";
export type { ImageFormat, SniffResult } from "./text/sniff.js";
export { sniffFileType } from "./text/sniff.js";
export { toToolError } from "./tool-errors.js";
export type { EditDetails, EditParams, EditToolOptions } from "./tools/edit.js";
export { createEditToolDefinition } from "./tools/edit.js";
export type { LsDetails, LsEntry, LsParams } from "./tools/ls.js";
export { createLsToolDefinition } from "./tools/ls.js";
export type { ReadDetails, ReadParams, ReadToolOptions } from "./tools/read.js";
export { createReadToolDefinition, READ_IMAGE_MAX_BYTES } from "./tools/read.js";
export type { WriteDetails, WriteParams } from "./tools/write.js";
export { createWriteToolDefinition } from "./tools/write.js";
export type { LineTruncation, TruncatedBy, TruncateOptions, TruncationResult } from "./truncate.js";
export {
  sliceUtf8End,
  sliceUtf8Start,
  truncateHead,
  truncateLine,
  truncateTail,
  utf8ByteLength,
} from "./truncate.js";
