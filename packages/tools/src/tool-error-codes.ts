/**
 * The error codes of Tackle's tools beyond the core's (`CORE_ERROR_CODES` in
 * `@tackle/agent-core`), each with what it means. Each tool declares the codes it fails with on
 * its definition (`errorCodes`, made with {@link toolErrorCodes}), so its outcomes are typed with
 * them and `invokeTool` lets them through; hosts that branch on every code of every Tackle tool
 * use {@link TackleToolErrorCode}.
 */
import type { CoreErrorCode, ErrorCodeMeanings } from "@tackle/agent-core";

/** Every code a Tackle tool declares, with what it means. */
export const TACKLE_TOOL_ERROR_CODES = {
  binary_file: "A text tool was given a binary file.",
  no_match: "The text to replace (an edit's oldText, a patch's context or anchor) was not found in the file.",
  ambiguous_match: "The text to replace matches more than one place in the file.",
  overlapping_edits: "Two edits (or patch hunks) of one call change the same lines.",
  encoding: "The file's encoding cannot hold or reproduce the text.",
  redacted_text:
    "The text holds a redaction placeholder ([REDACTED:kind]) that would overwrite a real secret.",
  interactive_prompt: "A command waited for input that cannot come (stdin is closed).",
} as const satisfies ErrorCodeMeanings;

/** A code some Tackle tool declares (see {@link TACKLE_TOOL_ERROR_CODES}). */
export type TackleToolOwnErrorCode = keyof typeof TACKLE_TOOL_ERROR_CODES;

/**
 * Every code an outcome of a Tackle tool may carry: the core's and the tools' own. For hosts that
 * branch on codes across all tools (`ToolErrorCode<typeof tool>` gives one tool's).
 */
export type TackleToolErrorCode = CoreErrorCode | TackleToolOwnErrorCode;

/** The declaration of `codes` with their meanings, for a definition's `errorCodes`. */
export function toolErrorCodes<const K extends TackleToolOwnErrorCode>(...codes: K[]): ErrorCodeMeanings<K> {
  const declared: Partial<Record<K, string>> = {};
  for (const code of codes) declared[code] = TACKLE_TOOL_ERROR_CODES[code];
  return Object.freeze(declared) as ErrorCodeMeanings<K>;
}

/** What the patch engine fails with (apply_patch, and bash applying an `apply_patch` heredoc). */
export const PATCH_ERROR_CODES = toolErrorCodes(
  "no_match",
  "ambiguous_match",
  "overlapping_edits",
  "encoding",
  "redacted_text",
);

/** The codes of the patch engine (see {@link PATCH_ERROR_CODES}). */
export type PatchErrorCode = keyof typeof PATCH_ERROR_CODES;
