/**
 * The apply_patch tool as the OpenAI Responses API takes it: a function tool with one string
 * (strict-compatible schema), or a free-form custom tool whose input a Lark grammar constrains,
 * the form Codex-trained models are used to. Both arrive at the same tool: a custom tool call's
 * raw text is the `input` argument.
 */

import { DEFAULTS } from "../defaults.js";

/**
 * The V4A patch language as a Lark grammar (the `definition` of a custom tool with
 * `format: { type: "grammar", syntax: "lark" }`). It admits what `parsePatch` reads strictly;
 * `parsePatch` also reads a few slips a grammar-constrained model cannot make (a heredoc around
 * the patch, a blank line for an empty kept line). A test loads it with Lark and checks both
 * against the patch corpus.
 */
export const APPLY_PATCH_LARK_GRAMMAR = String.raw`start: begin_patch section+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

section: add_file | delete_file | update_file
add_file: "*** Add File: " path LF added_line*
delete_file: "*** Delete File: " path LF
update_file: "*** Update File: " path LF (move_to hunk* | hunk+)
move_to: "*** Move to: " path LF
path: TEXT

hunk: anchor+ hunk_line+ end_of_file?
    | hunk_line+ end_of_file?
anchor: ("@@" | "@@ " TEXT) LF
hunk_line: (" " | "-" | "+") TEXT? LF
added_line: "+" TEXT? LF
end_of_file: "*** End of File" LF

TEXT: /[^\r\n]+/
%import common.LF
`;

/** The description both forms of the tool carry. */
export const APPLY_PATCH_DESCRIPTION = [
  "Apply a patch to files: add, delete, update and move files in one call, all or nothing.",
  "Format: '*** Begin Patch', then sections, then '*** End Patch'.",
  "'*** Add File: <path>' then every line of the new file prefixed with '+'.",
  "'*** Delete File: <path>'.",
  "'*** Update File: <path>' (optionally '*** Move to: <new path>'), then hunks: '@@ <a line of the file above the change, e.g. the function or class>' (or a bare '@@'),",
  `then lines prefixed ' ' (kept, about ${DEFAULTS.patchContextLines} before and after each change), '-' (removed) or '+' (added); '*** End of File' after a hunk that ends the file.`,
  "Hunks go in file order. Kept and removed lines must match the file (small differences in quotes, dashes, spaces or trailing whitespace are forgiven and named);",
  "a hunk that matches several places without an '@@' line is refused. Keeps encoding, BOM and line endings. Refused when a file changed since you read it: read it again.",
  "Paths are relative to the working directory. Returns one line per file changed; errors name the file, hunk and first differing line.",
].join(" ");

/** Name of the tool in both forms. */
export const APPLY_PATCH_TOOL_NAME = "apply_patch";

/** The JSON schema of the function form: one required string, no other property (valid in strict mode). */
export const APPLY_PATCH_PARAMETERS_SCHEMA = {
  type: "object",
  properties: {
    input: { type: "string", description: "The whole patch, from '*** Begin Patch' to '*** End Patch'." },
  },
  required: ["input"],
  additionalProperties: false,
} as const;

/** A Responses API custom tool with a Lark grammar (`tools` of `responses.create`). */
export interface ResponsesGrammarTool {
  type: "custom";
  name: string;
  description: string;
  format: { type: "grammar"; syntax: "lark"; definition: string };
}

/** A Responses API function tool (`tools` of `responses.create`). */
export interface ResponsesPatchFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: typeof APPLY_PATCH_PARAMETERS_SCHEMA;
  strict: true;
}

/**
 * The apply_patch tool for the Responses API, as a grammar-constrained custom tool (`"grammar"`,
 * the model's output is the patch itself) or a strict function tool (`"function"`, the patch is
 * the `input` argument). Run either call with the apply_patch tool: `{ input }` for a function
 * call, `{ input: call.input }` for a custom tool call.
 *
 * @example
 * ```ts
 * const response = await openai.responses.create({ model, input, tools: [applyPatchResponsesTool("grammar")] });
 * ```
 */
export function applyPatchResponsesTool(form: "grammar"): ResponsesGrammarTool;
export function applyPatchResponsesTool(form: "function"): ResponsesPatchFunctionTool;
export function applyPatchResponsesTool(
  form: "grammar" | "function",
): ResponsesGrammarTool | ResponsesPatchFunctionTool {
  if (form === "grammar") {
    return {
      type: "custom",
      name: APPLY_PATCH_TOOL_NAME,
      description: APPLY_PATCH_DESCRIPTION,
      format: { type: "grammar", syntax: "lark", definition: APPLY_PATCH_LARK_GRAMMAR },
    };
  }
  if (form !== "function")
    throw new TypeError(
      `applyPatchResponsesTool: form must be "grammar" or "function"; got ${JSON.stringify(form)}.`,
    );
  return {
    type: "function",
    name: APPLY_PATCH_TOOL_NAME,
    description: APPLY_PATCH_DESCRIPTION,
    parameters: APPLY_PATCH_PARAMETERS_SCHEMA,
    strict: true,
  };
}
