import type { ImageContent, TextContent } from "@tackle/agent-core";
import { installedAiDialect, type PromptDialect } from "./prompt-dialect.js";
import type { ToolResultOutput } from "./sdk-types.js";

/**
 * A tool result's content as the AI SDK sends it to the model: text alone as `text` (or
 * `error-text` when the call failed, so providers that flag errors, like Anthropic's `is_error`,
 * do), text with images as `content` parts. Used for the loop's tool result messages and for
 * `toAISDKTools`' `toModelOutput`, so both say exactly the same thing.
 */
export function toToolResultOutput(
  content: (TextContent | ImageContent)[],
  isError: boolean,
  dialect: PromptDialect = installedAiDialect(),
): ToolResultOutput {
  if (content.every((block) => block.type === "text")) {
    const value = content.map((block) => (block as TextContent).text).join("\n");
    return isError ? { type: "error-text", value } : { type: "text", value };
  }
  const value = content.map((block) =>
    block.type === "text" ? { type: "text", text: block.text } : dialect.resultImage(block),
  );
  return { type: "content", value } as ToolResultOutput;
}
