/**
 * Anthropic's text editor tool (`text_editor_20250728`, called `str_replace_based_edit_tool`):
 * `view` (a file with line numbers, a range of it, or a directory two levels deep), `create`,
 * `str_replace` and `insert`. Each command runs on Tackle's tools: view on read (so the read
 * ledger knows what the model saw), create on write, str_replace on edit (refused for no match
 * and for several, with their lines), insert on the patch engine.
 */
import { ToolError, type ToolOutcome } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ExtensionContext, ToolDefinition } from "@tackle/extensions";
import { type ApplyPatchDetails, applyParsedPatch } from "../patch/apply.js";
import { toolErrorCodes } from "../tool-error-codes.js";
import { createEditToolDefinition } from "../tools/edit.js";
import { createReadToolDefinition } from "../tools/read.js";
import { createWriteToolDefinition } from "../tools/write.js";
import { viewDirectory } from "./directory-view.js";
import { outcomeText } from "./outcome-text.js";

/** What the text editor fails with beyond the core's codes: those of read, edit, write and the patch engine. */
const TEXT_EDITOR_ERROR_CODES = toolErrorCodes(
  "binary_file",
  "no_match",
  "ambiguous_match",
  "overlapping_edits",
  "encoding",
  "redacted_text",
);
/** The codes the text editor tool declares (beside the core's). */
export type TextEditorErrorCode = keyof typeof TEXT_EDITOR_ERROR_CODES;

const parameters = Type.Object({
  command: Type.Union([
    Type.Literal("view"),
    Type.Literal("create"),
    Type.Literal("str_replace"),
    Type.Literal("insert"),
  ]),
  path: Type.String(),
  file_text: Type.Optional(Type.String()),
  insert_line: Type.Optional(Type.Integer()),
  new_str: Type.Optional(Type.String()),
  insert_text: Type.Optional(Type.String()),
  old_str: Type.Optional(Type.String()),
  view_range: Type.Optional(Type.Array(Type.Integer())),
});

/** Input of the text editor tool, as Anthropic's API sends it. */
export type AnthropicTextEditorInput = Static<typeof parameters>;

/** Name the text editor tool must have (`text_editor_20250728` requires it). */
export const TEXT_EDITOR_TOOL_NAME = "str_replace_based_edit_tool";

/** Options of {@link createAnthropicTextEditorToolDefinition}. */
export interface AnthropicTextEditorOptions {
  /** The tool's `max_characters`: a view is cut to this many characters (default: read's limits). */
  maxCharacters?: number;
}

function required<T>(value: T | undefined, field: string, command: string): T {
  if (value === undefined) {
    throw new ToolError(
      "invalid_arguments",
      `${command} needs ${field}. Nothing was changed. Send ${field} with the call.`,
    );
  }
  return value;
}

/** The text editor tool: name `str_replace_based_edit_tool`, Anthropic's input shape. */
export function createAnthropicTextEditorToolDefinition(
  options: AnthropicTextEditorOptions = {},
): ToolDefinition<typeof parameters, unknown, TextEditorErrorCode> {
  const read = createReadToolDefinition();
  const write = createWriteToolDefinition();
  const edit = createEditToolDefinition();
  return {
    name: TEXT_EDITOR_TOOL_NAME,
    label: "Text editor (Anthropic)",
    providerTool: {
      id: "anthropic.text_editor_20250728",
      args: options.maxCharacters === undefined ? {} : { maxCharacters: options.maxCharacters },
    },
    description:
      "View a file with line numbers (view_range [start, end], end -1 for the rest) or a directory two levels deep; create a file (file_text); replace old_str, which must occur exactly once, with new_str; insert insert_text after line insert_line (0 for the top).",
    promptGuidelines: [
      "View a file before changing it, and copy old_str exactly from the view (without the line numbers).",
    ],
    parameters,
    errorCodes: TEXT_EDITOR_ERROR_CODES,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      switch (params.command) {
        case "view":
          return view(toolCallId, params, signal, ctx);
        case "create":
          return write.execute(
            toolCallId,
            { path: params.path, content: required(params.file_text, "file_text", "create") },
            signal,
            undefined,
            ctx,
          );
        case "str_replace":
          return edit.execute(
            toolCallId,
            {
              path: params.path,
              edits: [
                {
                  oldText: required(params.old_str, "old_str", "str_replace"),
                  newText: params.new_str ?? "",
                },
              ],
            },
            signal,
            undefined,
            ctx,
          );
        case "insert":
          return insert(toolCallId, params, signal, ctx);
      }
    },
  };

  async function view(
    toolCallId: string,
    params: AnthropicTextEditorInput,
    signal: AbortSignal | undefined,
    ctx: ExtensionContext,
  ) {
    const resolved = await ctx.workspace.resolve(params.path, "read", { signal });
    const stat = await ctx.operations.stat(resolved.real, { signal }).catch(() => undefined);
    if (stat?.type === "directory") {
      if (params.view_range) {
        throw new ToolError(
          "invalid_arguments",
          `${resolved.display} is a directory; view_range applies to files. Send view without view_range to list it.`,
        );
      }
      return viewDirectory(ctx, resolved, signal);
    }
    const range = params.view_range;
    let window: { offset?: number; limit?: number } = {};
    if (range) {
      const [start, end] = range;
      if (
        range.length !== 2 ||
        start === undefined ||
        end === undefined ||
        start < 1 ||
        (end !== -1 && end < start)
      ) {
        throw new ToolError(
          "invalid_arguments",
          `view_range must be [start, end] with 1 <= start <= end, or end -1 for the rest of the file; got ${JSON.stringify(range)}.`,
        );
      }
      window = end === -1 ? { offset: start } : { offset: start, limit: end - start + 1 };
    }
    const result = await read.execute(toolCallId, { path: params.path, ...window }, signal, undefined, ctx);
    const max = options.maxCharacters;
    if (max === undefined) return result;
    const content = result.content.map((part) =>
      part.type === "text" && part.text.length > max
        ? {
            ...part,
            text: `${part.text.slice(0, max)}\n[View cut at max_characters ${max}; use view_range to see the rest.]`,
          }
        : part,
    );
    return { ...result, content };
  }

  async function insert(
    toolCallId: string,
    params: AnthropicTextEditorInput,
    signal: AbortSignal | undefined,
    ctx: ExtensionContext,
  ): Promise<{ content: { type: "text"; text: string }[]; details: ApplyPatchDetails }> {
    const afterLine = required(params.insert_line, "insert_line", "insert");
    const text = required(params.insert_text ?? params.new_str, "insert_text", "insert")
      .replace(/\r\n/g, "\n")
      .replace(/\n$/, "");
    const details = await applyParsedPatch(
      ctx,
      { sections: [{ kind: "insert", path: params.path, afterLine, text, patchLine: 0 }] },
      { toolCallId, signal, source: "file", toolName: TEXT_EDITOR_TOOL_NAME },
    );
    const file = details.files[0];
    const lines = text.split("\n").length;
    const where = afterLine === 0 ? "at the top" : `after line ${afterLine}`;
    const inserted = `Inserted ${lines} line${lines === 1 ? "" : "s"} ${where} of ${file?.path ?? params.path}.`;
    const summary = file?.feedbackText ? `${inserted}\n\n${file.feedbackText}` : inserted;
    return { content: [{ type: "text", text: summary }], details };
  }
}

/** The tool result for the API: its text, and whether it is an error (`is_error`). */
export function toAnthropicToolResultContent(outcome: ToolOutcome): { content: string; isError: boolean } {
  return { content: outcomeText(outcome), isError: outcome.isError };
}
