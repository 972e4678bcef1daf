/**
 * Answers for the vendors' own SDKs: an OpenAI Responses output item (`apply_patch_call`,
 * `shell_call`) becomes the input item that answers it, an Anthropic `tool_use` block of the
 * text editor or bash becomes its `tool_result` block. The tool declarations to send are here too.
 */

import { TEXT_EDITOR_TOOL_NAME } from "./anthropic-text-editor.js";
import type { NativeToolHandlers } from "./handlers.js";
import { NativeToolCallError } from "./handlers.js";

/** The Responses API `tools` entries for OpenAI's built-in apply_patch and shell. */
export const OPENAI_NATIVE_TOOL_DECLARATIONS = [{ type: "apply_patch" }, { type: "shell" }] as const;

/** The Messages API `tools` entries for Anthropic's text editor and bash. */
export function anthropicNativeToolDeclarations(options: { maxCharacters?: number } = {}) {
  return [
    {
      type: "text_editor_20250728" as const,
      name: TEXT_EDITOR_TOOL_NAME,
      ...(options.maxCharacters !== undefined ? { max_characters: options.maxCharacters } : {}),
    },
    { type: "bash_20250124" as const, name: "bash" as const },
  ];
}

/** An `apply_patch_call` output item of the Responses API (the fields read here). */
export interface OpenAIApplyPatchCallItem {
  type: "apply_patch_call";
  call_id: string;
  operation: { type: "create_file" | "update_file" | "delete_file"; path: string; diff?: string };
}

/** A `shell_call` output item of the Responses API (the fields read here). */
export interface OpenAIShellCallItem {
  type: "shell_call";
  call_id: string;
  action: { commands: string[]; timeout_ms?: number | null; max_output_length?: number | null };
}

/** The input item that answers an `apply_patch_call`. */
export interface OpenAIApplyPatchCallOutputItem {
  type: "apply_patch_call_output";
  call_id: string;
  status: "completed" | "failed";
  output?: string;
}

/** The input item that answers a `shell_call`. */
export interface OpenAIShellCallOutputItem {
  type: "shell_call_output";
  call_id: string;
  output: {
    stdout: string;
    stderr: string;
    outcome: { type: "timeout" } | { type: "exit"; exit_code: number };
  }[];
  max_output_length?: number;
}

/**
 * Runs an `apply_patch_call` or `shell_call` item and returns the item that answers it (append it
 * to the next request's `input`); undefined for any other item.
 *
 * @example
 * ```ts
 * for (const item of response.output) {
 *   const answer = await answerOpenAIResponsesItem(native, item);
 *   if (answer) input.push(answer);
 * }
 * ```
 */
export async function answerOpenAIResponsesItem(
  handlers: NativeToolHandlers,
  item: { type: string; call_id?: string } & Record<string, unknown>,
  options: { signal?: AbortSignal } = {},
): Promise<OpenAIApplyPatchCallOutputItem | OpenAIShellCallOutputItem | undefined> {
  const callOptions = {
    toolCallId: String(item.call_id),
    ...(options.signal ? { abortSignal: options.signal } : {}),
  };
  if (item.type === "apply_patch_call") {
    const call = item as unknown as OpenAIApplyPatchCallItem;
    const result = await handlers.openai.applyPatch(
      { callId: call.call_id, operation: call.operation },
      callOptions,
    );
    return { type: "apply_patch_call_output", call_id: call.call_id, ...result };
  }
  if (item.type === "shell_call") {
    const call = item as unknown as OpenAIShellCallItem;
    const { action } = call;
    const result = await handlers.openai.shell(
      {
        action: {
          commands: action.commands,
          ...(typeof action.timeout_ms === "number" ? { timeoutMs: action.timeout_ms } : {}),
          ...(typeof action.max_output_length === "number"
            ? { maxOutputLength: action.max_output_length }
            : {}),
        },
      },
      callOptions,
    );
    return {
      type: "shell_call_output",
      call_id: call.call_id,
      output: result.output.map((entry) => ({
        stdout: entry.stdout,
        stderr: entry.stderr,
        outcome:
          entry.outcome.type === "timeout"
            ? { type: "timeout" }
            : { type: "exit", exit_code: entry.outcome.exitCode },
      })),
      ...(typeof action.max_output_length === "number"
        ? { max_output_length: action.max_output_length }
        : {}),
    };
  }
  return undefined;
}

/** A `tool_use` content block of the Messages API (the fields read here). */
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** The `tool_result` block that answers a `tool_use`. */
export interface AnthropicNativeToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: true;
}

/**
 * Runs a `tool_use` block of the text editor (`str_replace_based_edit_tool`) or bash and returns
 * its `tool_result` (put it in the next user message); undefined for another tool's block.
 */
export async function answerAnthropicToolUse(
  handlers: NativeToolHandlers,
  block: AnthropicToolUseBlock,
  options: { signal?: AbortSignal } = {},
): Promise<AnthropicNativeToolResult | undefined> {
  const handler =
    block.name === TEXT_EDITOR_TOOL_NAME
      ? handlers.anthropic.textEditor
      : block.name === "bash"
        ? handlers.anthropic.bash
        : undefined;
  if (!handler) return undefined;
  try {
    const content = await handler(block.input, {
      toolCallId: block.id,
      ...(options.signal ? { abortSignal: options.signal } : {}),
    });
    return { type: "tool_result", tool_use_id: block.id, content };
  } catch (error) {
    if (!(error instanceof NativeToolCallError)) throw error;
    return { type: "tool_result", tool_use_id: block.id, content: error.message, is_error: true };
  }
}
