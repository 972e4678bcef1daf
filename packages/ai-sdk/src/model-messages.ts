import type {
  AssistantMessage,
  Message,
  ProviderMetadata,
  ToolCall,
  ToolOutcome,
  ToolResultMessage,
  UserMessage,
} from "@tackle/agent-core";
import type { AssistantContent, JSONValue, ModelMessage, ToolContent, UserContent } from "ai";
import { IMAGES_FOLLOW_TEXT, imagesOfResultLabel } from "./images-follow.js";
import { installedAiDialect, type PromptDialect } from "./prompt-dialect.js";
import type { JsonResults } from "./provider-tools.js";
import type { ProviderOptions } from "./sdk-types.js";
import { toToolResultOutput } from "./tool-output.js";

/** The result text a call gets when the conversation holds no result for it. */
export const MISSING_RESULT_TEXT =
  "No result: this call did not finish (the run was interrupted). Call it again if it is still needed.";

/** Options of {@link toModelMessages}. */
export interface ModelMessagesOptions {
  /**
   * Put the images of a tool result inside it (default), or, for APIs whose tool messages take
   * text only, in a user message right after the tool results, the result saying so.
   */
  imagesInToolResults?: boolean;
  /** How images are spelled; default: as the installed `ai` package spells them. */
  dialect?: PromptDialect;
  /**
   * Results that go back as JSON, by tool name: the provider-defined tools whose provider takes
   * a value, not text (OpenAI's apply_patch `{ status, output }`; see `ProviderToolSpec.toResult`).
   */
  jsonResults?: JsonResults;
}

/**
 * Our conversation as AI SDK model messages (the system prompt goes separately, as `system`).
 * The same conversion writes the provider prompt of each turn of `aiSdkModel`.
 *
 * - User text and images (as `file` parts with an image media type).
 * - Assistant text, thinking (as `reasoning`) and tool calls, each with the provider metadata it
 *   arrived with, so reasoning signatures and item ids go back exactly as the provider sent them.
 *   Empty text blocks are left out (Anthropic rejects them).
 * - Tool results, consecutive ones in one `tool` message; images inside them or after them (see
 *   {@link ModelMessagesOptions.imagesInToolResults}).
 * - Providers reject a tool call without a result and a result without its call. A call cut off
 *   by an error or abort (its message never completed) is dropped with its result, if any; a
 *   call of a completed reply that has no result gets {@link MISSING_RESULT_TEXT} as an error
 *   result right after it.
 *
 * Must not throw for any conversation the loop builds.
 */
export function toModelMessages(
  messages: readonly Message[],
  options: ModelMessagesOptions = {},
): ModelMessage[] {
  const imagesInResults = options.imagesInToolResults !== false;
  const dialect = options.dialect ?? installedAiDialect();
  const jsonResults = options.jsonResults;
  const answered = new Set<string>();
  for (const message of messages) if (message.role === "toolResult") answered.add(message.toolCallId);
  const sentCalls = new Set<string>();
  const sentResults = new Set<string>();
  const out: ModelMessage[] = [];
  let unanswered: ToolCall[] = [];
  // Runs when the results that follow a reply are over: its calls still without one get one.
  const flushUnanswered = () => {
    for (const call of unanswered) {
      if (sentResults.has(call.id)) continue;
      sentResults.add(call.id);
      const missing = { content: [{ type: "text" as const, text: MISSING_RESULT_TEXT }], isError: true };
      const toJson = jsonResults?.get(call.name);
      appendToolResult(
        out,
        toJson === undefined
          ? {
              type: "tool-result",
              toolCallId: call.id,
              toolName: call.name,
              output: { type: "error-text", value: MISSING_RESULT_TEXT },
            }
          : jsonResultPart(
              { ...missing, toolCallId: call.id, toolName: call.name, details: undefined },
              toJson,
            ),
      );
    }
    unanswered = [];
  };
  let images: Exclude<UserContent, string> = [];
  const flushImages = () => {
    if (images.length > 0) out.push({ role: "user", content: images });
    images = [];
  };
  for (const message of messages) {
    if (message.role !== "toolResult") {
      flushUnanswered();
      flushImages();
    }
    switch (message.role) {
      case "user":
        out.push({ role: "user", content: userContent(message, dialect) });
        break;
      case "assistant": {
        const complete = message.stopReason !== "error" && message.stopReason !== "aborted";
        const calls = message.content.filter(
          (block): block is ToolCall => block.type === "toolCall" && (complete || answered.has(block.id)),
        );
        for (const call of calls) sentCalls.add(call.id);
        const content = assistantContent(message, new Set(calls.map((call) => call.id)));
        if (content.length > 0) out.push({ role: "assistant", content });
        unanswered = calls;
        break;
      }
      case "toolResult":
        if (!sentCalls.has(message.toolCallId) || sentResults.has(message.toolCallId)) break;
        sentResults.add(message.toolCallId);
        if (jsonResults?.has(message.toolName)) {
          appendToolResult(out, jsonResultPart(message, jsonResults.get(message.toolName)!));
          break;
        }
        if (imagesInResults || message.content.every((block) => block.type === "text")) {
          appendToolResult(out, toolResultPart(message, dialect));
          break;
        }
        appendToolResult(out, toolResultPart({ ...message, content: textWithImagesNote(message) }, dialect));
        images.push({ type: "text", text: imagesOfResultLabel(message.toolCallId) });
        for (const block of message.content)
          if (block.type === "image") images.push(dialect.userImage(block) as unknown as UserPart);
        break;
    }
  }
  flushUnanswered();
  flushImages();
  return out;
}

type UserPart = Exclude<UserContent, string>[number];

function userContent(message: UserMessage, dialect: PromptDialect): UserContent {
  if (typeof message.content === "string") return message.content;
  return message.content.map((block) =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : (dialect.userImage(block) as unknown as UserPart),
  );
}

function assistantContent(
  message: AssistantMessage,
  keptCalls: ReadonlySet<string>,
): Exclude<AssistantContent, string> {
  const parts: Exclude<AssistantContent, string> = [];
  for (const block of message.content) {
    const providerOptions = asProviderOptions(block.providerMetadata);
    const extra = providerOptions === undefined ? {} : { providerOptions };
    if (block.type === "text") {
      if (block.text !== "") parts.push({ type: "text", text: block.text, ...extra });
    } else if (block.type === "thinking") {
      // Redacted reasoning has no text but must go back: its data rides in the metadata.
      if (block.thinking !== "" || providerOptions !== undefined)
        parts.push({ type: "reasoning", text: block.thinking, ...extra });
    } else if (keptCalls.has(block.id)) {
      parts.push({
        type: "tool-call",
        toolCallId: block.id,
        toolName: block.name,
        input: callInput(block.arguments),
        ...extra,
      });
    }
  }
  return parts;
}

/**
 * What the model is shown it sent. Malformed arguments (a JSON string, or text that is not JSON)
 * reach tools as sent so the lenient step can repair them; providers want an object back
 * (Anthropic rejects anything else), so a string is parsed when it holds an object, else `{}`.
 */
function callInput(args: unknown): Record<string, unknown> {
  if (isPlainObject(args)) return args;
  if (typeof args === "string") {
    try {
      const parsed: unknown = JSON.parse(args);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // Not JSON: the tool result already told the model what was wrong.
    }
  }
  return {};
}

function textWithImagesNote(message: ToolResultMessage): ToolResultMessage["content"] {
  const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : []));
  return [{ type: "text", text: [...text, IMAGES_FOLLOW_TEXT].join("\n") }];
}

function toolResultPart(message: ToolResultMessage, dialect: PromptDialect): ToolContent[number] {
  return {
    type: "tool-result",
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    output: toToolResultOutput(message.content, message.isError, dialect),
  };
}

/** A result in the shape its provider takes back: a JSON value made from the outcome. */
function jsonResultPart(
  message: Pick<ToolResultMessage, "toolCallId" | "toolName" | "content" | "details" | "isError">,
  toJson: (outcome: ToolOutcome) => unknown,
): ToolContent[number] {
  const { content, details, isError } = message;
  return {
    type: "tool-result",
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    output: { type: "json", value: toJson({ content, details, isError }) as JSONValue },
  };
}

/** Adds a result to the `tool` message at the end, or starts one. */
function appendToolResult(out: ModelMessage[], part: ToolContent[number]): void {
  const last = out.at(-1);
  if (last?.role === "tool") last.content.push(part);
  else out.push({ role: "tool", content: [part] });
}

/** Metadata a provider streamed is exactly what it wants back as options (same keys, JSON values). */
function asProviderOptions(metadata: ProviderMetadata | undefined): ProviderOptions | undefined {
  if (metadata === undefined || Object.keys(metadata).length === 0) return undefined;
  return metadata as ProviderOptions;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
