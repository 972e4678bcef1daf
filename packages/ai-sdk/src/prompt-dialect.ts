import type { ImageContent } from "@tackle/agent-core";

/**
 * How images are spelled in one message format. Everything else this package writes (text,
 * reasoning, tool calls, tool results, provider options) is spelled the same in the AI SDK's
 * `ModelMessage` of `ai` 6 and 7 and in the provider prompts of the v2, v3 and v4 model
 * specifications; images are not:
 *
 * | format | user image | image in a tool result |
 * |---|---|---|
 * | `ai` 6 `ModelMessage`, provider spec v3 | `file`, base64 `data` | `image-data` |
 * | `ai` 7 `ModelMessage`, provider spec v4 | `file`, `data: { type: "data", data }` | `file` with tagged data |
 * | provider spec v2 | `file`, base64 `data` | `media` |
 *
 * (`ai` 7 still takes the `ai` 6 spellings but logs a deprecation warning for each; the v3 dialect
 * remains for provider packages of spec v3 that `ai` 7 still drives.)
 */
export interface PromptDialect {
  /** A user message's image. */
  userImage(image: ImageContent): Record<string, unknown>;
  /** An image inside a tool result's `content` output. */
  resultImage(image: ImageContent): Record<string, unknown>;
}

const base64File = (image: ImageContent) => ({ type: "file", data: image.data, mediaType: image.mimeType });
const taggedFile = (image: ImageContent) => ({
  type: "file",
  data: { type: "data", data: image.data },
  mediaType: image.mimeType,
});

/** `ai` 6 messages and v3 provider prompts. */
export const V3_DIALECT: PromptDialect = {
  userImage: base64File,
  resultImage: (image) => ({ type: "image-data", data: image.data, mediaType: image.mimeType }),
};

/** `ai` 7 messages and v4 provider prompts. */
export const V4_DIALECT: PromptDialect = { userImage: taggedFile, resultImage: taggedFile };

/** v2 provider prompts. */
export const V2_DIALECT: PromptDialect = {
  userImage: base64File,
  resultImage: (image) => ({ type: "media", data: image.data, mediaType: image.mimeType }),
};

/** The dialect of the `ModelMessage`s of the supported `ai` major (7). */
export function installedAiDialect(): PromptDialect {
  return V4_DIALECT;
}
