import type { AnyAgentTool, ToolErrorCode } from "./tool.js";
import { CORE_ERROR_CODES, type ErrorCodeMeanings } from "./tool-error.js";

/**
 * Every code a call of `tool` may fail with, each with what it means: the core's
 * (`CORE_ERROR_CODES`) and the tool's own (`errorCodes`). For docs, tool listings (the MCP
 * server lists them per tool) and hosts that show what a code means. Core codes first, each
 * with the core's meaning.
 *
 * @example
 * ```ts
 * const meanings = errorCodesOf(edit);
 * console.log(meanings.no_match); // "The text to replace ... was not found in the file."
 * ```
 */
export function errorCodesOf<TTool extends AnyAgentTool>(
  tool: TTool,
): ErrorCodeMeanings<ToolErrorCode<TTool>> {
  const meanings: Record<string, string> = { ...CORE_ERROR_CODES };
  // A tool that declares a core code again does not change what it means.
  for (const [code, meaning] of Object.entries(tool.errorCodes ?? {}))
    if (!Object.hasOwn(meanings, code)) meanings[code] = String(meaning);
  return meanings as ErrorCodeMeanings<ToolErrorCode<TTool>>;
}
