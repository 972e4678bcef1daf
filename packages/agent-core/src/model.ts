import type { AssistantMessage, Message, TextContent, ThinkingContent, ToolCall } from "./messages.js";
import type { AnyAgentTool } from "./tool.js";

/** Identifies a model. */
export interface Model {
  id: string;
  provider: string;
}

/** What the model is sent on each turn. */
export interface ModelContext {
  systemPrompt?: string;
  messages: Message[];
  tools: AnyAgentTool[];
}

/** Streaming events of one assistant message. Deltas carry the content index they extend. */
export type AssistantMessageEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; contentIndex: number; content: TextContent; partial: AssistantMessage }
  | { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_end"; contentIndex: number; content: ThinkingContent; partial: AssistantMessage }
  | { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
  | { type: "done"; message: AssistantMessage }
  | { type: "error"; message: AssistantMessage };

/**
 * Streams one assistant reply. Reports failure inside the stream (an `error` event whose
 * message has `stopReason: "error" | "aborted"`); never throws or rejects.
 */
export type StreamFn = (
  model: Model,
  context: ModelContext,
  options: { signal?: AbortSignal },
) => AsyncIterable<AssistantMessageEvent>;
