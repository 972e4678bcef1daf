/**
 * `@tackle/tools/patch`: the V4A patch format (`*** Begin Patch`) on Tackle's edit engine: the
 * parser, the applier behind the apply_patch tool, and the tool's Responses API forms.
 */
export type { ApplyPatchDetails, ApplyPatchOptions, PatchFileResult } from "./apply.js";
export { applyParsedPatch, applyPatch } from "./apply.js";
export type { ResponsesGrammarTool, ResponsesPatchFunctionTool } from "./grammar.js";
export {
  APPLY_PATCH_DESCRIPTION,
  APPLY_PATCH_LARK_GRAMMAR,
  APPLY_PATCH_PARAMETERS_SCHEMA,
  APPLY_PATCH_TOOL_NAME,
  applyPatchResponsesTool,
} from "./grammar.js";
export type { PatchCommand } from "./heredoc.js";
export { recognizePatchCommand } from "./heredoc.js";
export type { HunkOutcome } from "./locate.js";
export type { HunkLine, ParsedPatch, ParsePatchOptions, PatchHunk, PatchSection } from "./parse.js";
export { parsePatch } from "./parse.js";
export type { ApplyPatchParams, ApplyPatchToolOptions } from "./tool.js";
export { createApplyPatchToolDefinition } from "./tool.js";
