import type { ToolOutcome } from "@tackle/agent-core";
import type { JsonSchema } from "@tackle/extensions";
import { listTools, type ToolList, type ToolSchemaSource, toolParameters } from "./tool-schemas.js";

/** A client tool of the Anthropic Messages API (`tools` of `messages.create`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema & { type: "object" };
}

/** The image types the Messages API takes. */
export type AnthropicImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** A `tool_result` content block (goes in the next user message). */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: (
    | { type: "text"; text: string }
    | { type: "image"; source: { type: "base64"; media_type: AnthropicImageMediaType; data: string } }
  )[];
  is_error: boolean;
}

/** The tools for the Anthropic Messages API. */
export function toAnthropicTools(tools: ToolList<ToolSchemaSource>): AnthropicTool[] {
  return listTools(tools).map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...toolParameters(tool, false).schema, type: "object" },
  }));
}

/**
 * A tool outcome as a `tool_result` block: text and images, `is_error` set for failed calls.
 *
 * @example
 * ```ts
 * const outcome = await invokeTool(tool, block.input, { signal });
 * messages.push({ role: "user", content: [toAnthropicToolResult(block.id, outcome)] });
 * ```
 */
export function toAnthropicToolResult(
  toolUseId: string,
  outcome: Pick<ToolOutcome, "content" | "isError">,
): AnthropicToolResultBlock {
  return {
    type: "tool_result",
    tool_use_id: toolUseId,
    content: outcome.content.map((block) =>
      block.type === "text"
        ? { type: "text", text: block.text }
        : {
            type: "image",
            source: {
              type: "base64",
              media_type: block.mimeType as AnthropicImageMediaType,
              data: block.data,
            },
          },
    ),
    is_error: outcome.isError,
  };
}
