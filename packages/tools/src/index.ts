export type { Defaults } from "./defaults.js";
export { DEFAULTS, formatBytes } from "./defaults.js";
export type { FuzzyKind } from "./edit/normalize.js";
export type { EditOutcome, EditPlan, EditRequest, MatcherName } from "./edit/plan.js";
export { planEdits } from "./edit/plan.js";
export { repairEditArguments } from "./edit/repair-arguments.js";
export type { EditDetails, EditParams, EditToolOptions } from "./tools/edit.js";
export { createEditToolDefinition } from "./tools/edit.js";
export type { LineTruncation, TruncatedBy, TruncateOptions, TruncationResult } from "./truncate.js";
export {
  sliceUtf8End,
  sliceUtf8Start,
  truncateHead,
  truncateLine,
  truncateTail,
  utf8ByteLength,
} from "./truncate.js";
