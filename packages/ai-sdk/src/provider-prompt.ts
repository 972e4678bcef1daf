import type { Message } from "@tackle/agent-core";
import { toModelMessages } from "./model-messages.js";
import { type PromptDialect, V2_DIALECT, V3_DIALECT, V4_DIALECT } from "./prompt-dialect.js";
import type { SpecVersion } from "./provider-model.js";
import type { JsonResults } from "./provider-tools.js";

const DIALECTS: Record<SpecVersion, PromptDialect> = { v2: V2_DIALECT, v3: V3_DIALECT, v4: V4_DIALECT };

/**
 * The prompt of one `doStream` call: the system prompt as a `system` message, then the
 * conversation as {@link toModelMessages} writes it in the model specification's dialect, with
 * user text as a text part (the specs take parts only). The result is valid by construction, so
 * it is not validated again on every turn (what `streamText` would do, at a cost that grows with
 * the conversation).
 */
export function toProviderPrompt(
  systemPrompt: string | undefined,
  messages: readonly Message[],
  spec: SpecVersion,
  imagesInToolResults: boolean,
  jsonResults?: JsonResults,
): unknown[] {
  const prompt: unknown[] = [];
  if (systemPrompt) prompt.push({ role: "system", content: systemPrompt });
  const options = { dialect: DIALECTS[spec], imagesInToolResults, ...(jsonResults ? { jsonResults } : {}) };
  for (const message of toModelMessages(messages, options)) {
    if (message.role === "user" && typeof message.content === "string") {
      prompt.push({ role: "user", content: [{ type: "text", text: message.content }] });
    } else {
      prompt.push(message);
    }
  }
  return prompt;
}
