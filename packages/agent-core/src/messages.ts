/**
 * Opaque data a model adapter attaches to a block, keyed by provider, so it can send the block
 * back exactly on later turns (reasoning signatures, encrypted reasoning, item ids). Kept as is;
 * never shown to the model as text.
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/** Plain text content. */
export interface TextContent {
  type: "text";
  text: string;
  /** Set by the model adapter that produced it; see {@link ProviderMetadata}. */
  providerMetadata?: ProviderMetadata;
}

/** An image, base64-encoded. */
export interface ImageContent {
  type: "image";
  /** Base64 data, no `data:` prefix. */
  data: string;
  /** e.g. `"image/png"`. */
  mimeType: string;
}

/** Model reasoning shown to the user but not sent back as text. */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  /** Set by the model adapter that produced it (e.g. the reasoning signature a provider wants back); see {@link ProviderMetadata}. */
  providerMetadata?: ProviderMetadata;
}

/** A tool call requested by the model. `arguments` is whatever the model sent (often malformed). */
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Set by the model adapter that produced it; see {@link ProviderMetadata}. */
  providerMetadata?: ProviderMetadata;
}

/** A message from the user (or the host on the user's behalf). */
export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}

/** Why the model stopped. `length`: cut by the token limit, its tool calls must not run. */
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

/** Token counts of one model reply as the provider reported them; a field the provider did not report is absent. */
export interface Usage {
  /** Prompt tokens, cached ones included. */
  inputTokens?: number;
  /** Generated tokens, reasoning included. */
  outputTokens?: number;
  /** Prompt tokens read from the provider's cache. */
  cacheReadTokens?: number;
  /** Prompt tokens written to the provider's cache. */
  cacheWriteTokens?: number;
  /** Generated tokens spent on reasoning. */
  reasoningTokens?: number;
  totalTokens?: number;
}

/** A message from the model. */
export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  stopReason: StopReason;
  /** Set when `stopReason` is `error` or `aborted`. */
  errorMessage?: string;
  /** Model id that produced it. */
  model?: string;
  /** Token counts, when the model reports them. */
  usage?: Usage;
  timestamp: number;
}

/**
 * The result of one tool call, sent back to the model. `TErrorCode` is what `errorCode` may be
 * (any code by default; `ToolErrorCode<typeof tool>` for one tool's).
 */
export interface ToolResultMessage<TDetails = unknown, TErrorCode extends string = string> {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  /** Structured data for UIs and logs; never sent to the model. */
  details: TDetails;
  isError: boolean;
  /**
   * Set when `isError`: the code hosts branch on (never the message text), a core code
   * (`CoreErrorCode`) or one the tool declares in its `errorCodes`.
   */
  errorCode?: TErrorCode;
  timestamp: number;
}

/** Any message in the conversation (`TErrorCode`: what a tool result's `errorCode` may be). */
export type Message<TErrorCode extends string = string> =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage<unknown, TErrorCode>;

/** A user message with text (or text and images), stamped now. */
export function userMessage(content: UserMessage["content"]): UserMessage {
  return { role: "user", content, timestamp: Date.now() };
}
