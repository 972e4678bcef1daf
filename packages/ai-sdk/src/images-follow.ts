/**
 * Chat-Completions-style APIs (OpenAI's `/chat/completions` and the OpenAI-compatible servers)
 * take text only in a tool message. The images of a tool result then go in a user message right
 * after the tool results; these are the words that tie them together.
 */
export const IMAGES_FOLLOW_TEXT = "(The images of this result follow in the next message.)";

/** The label before the images of one tool result in the user message that carries them. */
export function imagesOfResultLabel(toolCallId: string): string {
  return `Images of tool result ${toolCallId}:`;
}
