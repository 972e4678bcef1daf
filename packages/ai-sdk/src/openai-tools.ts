import type { ImageContent, ToolOutcome } from "@tackle/agent-core";
import type { JsonSchema } from "@tackle/extensions";
import { IMAGES_FOLLOW_TEXT, imagesOfResultLabel } from "./images-follow.js";
import { listTools, type ToolList, type ToolSchemaSource, toolParameters } from "./tool-schemas.js";

/** Options of {@link toOpenAITools} and {@link toOpenAIResponsesTools}. */
export interface OpenAIToolsOptions {
  /**
   * Strict mode (OpenAI's Structured Outputs for function calling): schemas in strict form (see
   * `toStrictJsonSchema`) and `strict: true`. A tool whose schema cannot be strict is sent as is
   * with `strict: false`. Default false.
   */
  strict?: boolean;
}

/** A function tool of the Chat Completions API (`tools` of `chat.completions.create`). */
export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema; strict: boolean };
}

/** A function tool of the Responses API (`tools` of `responses.create`). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** A Chat Completions message that carries (part of) a tool result. */
export type OpenAIChatToolResultMessage =
  | { role: "tool"; tool_call_id: string; content: string }
  | {
      role: "user";
      content: ({ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } })[];
    };

/** A Responses API input item with a tool result. */
export interface OpenAIFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output:
    | string
    | ({ type: "input_text"; text: string } | { type: "input_image"; image_url: string; detail: "auto" })[];
}

/** The tools for the Chat Completions API. */
export function toOpenAITools(
  tools: ToolList<ToolSchemaSource>,
  options: OpenAIToolsOptions = {},
): OpenAIChatTool[] {
  return listTools(tools).map((tool) => {
    const { schema, strict } = toolParameters(tool, options.strict === true);
    return {
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: schema, strict },
    };
  });
}

/** The tools for the Responses API. */
export function toOpenAIResponsesTools(
  tools: ToolList<ToolSchemaSource>,
  options: OpenAIToolsOptions = {},
): OpenAIResponsesTool[] {
  return listTools(tools).map((tool) => {
    const { schema, strict } = toolParameters(tool, options.strict === true);
    return { type: "function", name: tool.name, description: tool.description, parameters: schema, strict };
  });
}

/**
 * A tool outcome as Chat Completions messages. A tool message holds text only, so images go in
 * a user message right after it (the tool message says so).
 *
 * @example
 * ```ts
 * const outcome = await invokeTool(tool, JSON.parse(call.function.arguments), { signal });
 * messages.push(...toOpenAIToolMessages(call.id, outcome));
 * ```
 */
export function toOpenAIToolMessages(
  toolCallId: string,
  outcome: Pick<ToolOutcome, "content">,
): OpenAIChatToolResultMessage[] {
  const text = textOf(outcome);
  const images = imagesOf(outcome);
  if (images.length === 0) return [{ role: "tool", tool_call_id: toolCallId, content: text }];
  return [
    {
      role: "tool",
      tool_call_id: toolCallId,
      content: [text, IMAGES_FOLLOW_TEXT].filter(Boolean).join("\n"),
    },
    {
      role: "user",
      content: [
        { type: "text", text: imagesOfResultLabel(toolCallId) },
        ...images.map((image) => ({ type: "image_url" as const, image_url: { url: dataUrl(image) } })),
      ],
    },
  ];
}

/** A tool outcome as a Responses API `function_call_output` item (images included). */
export function toOpenAIFunctionCallOutput(
  callId: string,
  outcome: Pick<ToolOutcome, "content">,
): OpenAIFunctionCallOutput {
  const images = imagesOf(outcome);
  if (images.length === 0) return { type: "function_call_output", call_id: callId, output: textOf(outcome) };
  return {
    type: "function_call_output",
    call_id: callId,
    output: outcome.content.map((block) =>
      block.type === "text"
        ? { type: "input_text" as const, text: block.text }
        : { type: "input_image" as const, image_url: dataUrl(block), detail: "auto" as const },
    ),
  };
}

function textOf(outcome: Pick<ToolOutcome, "content">): string {
  return outcome.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

function imagesOf(outcome: Pick<ToolOutcome, "content">): ImageContent[] {
  return outcome.content.filter((block): block is ImageContent => block.type === "image");
}

function dataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
