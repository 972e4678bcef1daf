import type { TextPart, ToolResultPart } from "ai";

/**
 * Provider-specific options as the installed `ai` package types them, keyed by provider:
 * `{ anthropic: { cacheControl: { type: "ephemeral" } } }`, `{ openai: { reasoningEffort: "high" } }`.
 * Taken from a type every supported `ai` major exports, so this package's types follow the
 * user's `ai` version.
 */
export type ProviderOptions = NonNullable<TextPart["providerOptions"]>;

/** What a tool result says to the model, in the AI SDK's terms (`text`, `error-text`, `content`, ...). */
export type ToolResultOutput = ToolResultPart["output"];
