import type { ImageContent, TextContent } from "@tackle/agent-core";
import { aiMajorVersion } from "./ai-version.js";
import type { ToolResultOutput } from "./sdk-types.js";

type ContentItem = Extract<ToolResultOutput, { type: "content" }>["value"][number];

/**
 * A tool result's content as the AI SDK sends it to the model: text alone as `text` (or
 * `error-text` when the call failed, so providers that flag errors, like Anthropic's `is_error`,
 * do), text with images as `content` parts. Used for the loop's tool result messages and for
 * `toAISDKTools`' `toModelOutput`, so both say exactly the same thing.
 */
export function toToolResultOutput(
  content: (TextContent | ImageContent)[],
  isError: boolean,
): ToolResultOutput {
  if (content.every((block) => block.type === "text")) {
    const value = content.map((block) => (block as TextContent).text).join("\n");
    return isError ? { type: "error-text", value } : { type: "text", value };
  }
  const value: ContentItem[] = content.map((block) =>
    block.type === "text" ? { type: "text", text: block.text } : imageItem(block),
  );
  return { type: "content", value };
}

/**
 * An image inside a tool result. `ai` 6 calls it `image-data`; `ai` 7 renamed it to a `file` with
 * tagged data and warns on every call that uses the old name.
 */
function imageItem(image: ImageContent): ContentItem {
  if (aiMajorVersion() >= 7) {
    return {
      type: "file",
      data: { type: "data", data: image.data },
      mediaType: image.mimeType,
    } as unknown as ContentItem;
  }
  return { type: "image-data", data: image.data, mediaType: image.mimeType };
}
