import type { AnyAgentTool, AssistantMessageEvent, Model, StreamFn } from "@tackle/agent-core";
import { type LanguageModel, streamText, type TextStreamPart, type ToolSet } from "ai";
import { toModelMessages } from "./model-messages.js";
import { ReplyBuilder } from "./reply-builder.js";
import type { ProviderOptions } from "./sdk-types.js";
import { toSdkToolSchema } from "./tool-schemas.js";

/** Options of {@link aiSdkModel}: the AI SDK's call settings, sent with every turn. */
export interface AiSdkModelOptions {
  /**
   * Provider-specific options, passed through as is. Prompt caching and reasoning effort are one
   * option away: `{ anthropic: { cacheControl: { type: "ephemeral" } } }`,
   * `{ openai: { reasoningEffort: "high" } }`, `{ anthropic: { thinking: { type: "enabled", budgetTokens: 4000 } } }`.
   */
  providerOptions?: ProviderOptions;
  /** Most tokens per reply; a reply cut by it ends with `stopReason: "length"`. */
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
  /** Retries of a failed request (rate limits, 5xx) with backoff, by the AI SDK; its default is 2. */
  maxRetries?: number;
  /** Extra HTTP headers for every request. */
  headers?: Record<string, string | undefined>;
  /** `auto` (default), `none`, `required`, or one tool by name. */
  toolChoice?: "auto" | "none" | "required" | { type: "tool"; toolName: string };
  /**
   * Send tool schemas in OpenAI's strict form (every property required, optional ones nullable,
   * no extra properties); a tool whose schema cannot be strict is sent as is. Default false.
   */
  strictTools?: boolean;
  /**
   * Whether images a tool returns go inside its tool result (Anthropic, Google, OpenAI's
   * Responses API) or, for APIs whose tool messages take text only, in a user message right
   * after the results. Default: inside, except for Chat-Completions-style providers (provider id
   * ending in `.chat`: `openai.chat`, the OpenAI-compatible servers), which would otherwise get
   * the image as base64 text.
   */
  imagesInToolResults?: boolean;
  /** Overrides the model's id and provider as the loop reports them. */
  model?: Partial<Model>;
}

/** What `Agent` and `agentLoop` take: the model's identity and the stream function. */
export interface AiSdkModel {
  model: Model;
  streamFn: StreamFn;
}

/**
 * Drives the Tackle agent loop with any AI SDK language model: OpenAI, Anthropic, Google,
 * OpenAI-compatible servers (Ollama, vLLM, LM Studio), the AI Gateway (a model id string).
 *
 * Each turn is one `streamText` call with no tool `execute` functions and one step: the SDK
 * talks to the provider (prompt conversion, retries, abort), the loop runs the tools (lenient
 * arguments, hooks, validation, the executor's rules). What the SDK streams becomes our
 * assistant-message events: text, reasoning and tool-call deltas, finish reason as
 * `stopReason` (`length` included), usage, provider errors as `stopReason: "error"` with the
 * provider's message, and our abort signal aborts the request.
 *
 * @example
 * ```ts
 * import { anthropic } from "@ai-sdk/anthropic";
 * const agent = new Agent({ ...aiSdkModel(anthropic("claude-sonnet-4-5")), tools });
 * await agent.prompt("Fix the failing test");
 * ```
 */
export function aiSdkModel(languageModel: LanguageModel, options: AiSdkModelOptions = {}): AiSdkModel {
  const { model: identity, strictTools = false, toolChoice, imagesInToolResults, ...settings } = options;
  const model: Model = { ...identityOf(languageModel), ...identity };
  const imagesInResults = imagesInToolResults ?? !identityOf(languageModel).provider.endsWith(".chat");
  const toolSets = new WeakMap<readonly AnyAgentTool[], ToolSet>();
  const toolsFor = (tools: readonly AnyAgentTool[]): ToolSet => {
    let set = toolSets.get(tools);
    if (set === undefined) {
      set = Object.fromEntries(tools.map((tool) => [tool.name, toSdkToolSchema(tool, strictTools)]));
      toolSets.set(tools, set);
    }
    return set;
  };
  const streamFn: StreamFn = (_model, context, { signal }) =>
    streamReply(model.id, signal, () =>
      streamText({
        model: languageModel,
        ...(context.systemPrompt ? { system: context.systemPrompt } : {}),
        messages: toModelMessages(context.messages, { imagesInToolResults: imagesInResults }),
        ...settings,
        ...(context.tools.length === 0
          ? {}
          : { tools: toolsFor(context.tools), ...(toolChoice === undefined ? {} : { toolChoice }) }),
        ...(signal === undefined ? {} : { abortSignal: signal }),
        // Errors arrive as `error` parts; the SDK's default handler would also print them.
        onError: () => {},
      }),
    );
  return { model, streamFn };
}

function identityOf(languageModel: LanguageModel): Model {
  if (typeof languageModel === "string") return { id: languageModel, provider: "gateway" };
  return { id: languageModel.modelId, provider: languageModel.provider };
}

/** One turn. Never throws: every failure ends the stream with an `error` event (the StreamFn contract). */
async function* streamReply(
  modelId: string,
  signal: AbortSignal | undefined,
  start: () => { fullStream: AsyncIterable<TextStreamPart<ToolSet>> },
): AsyncGenerator<AssistantMessageEvent> {
  const reply = new ReplyBuilder(modelId);
  yield reply.start();
  try {
    for await (const part of start().fullStream) yield* reply.apply(part);
  } catch (error) {
    reply.fail(error);
  }
  yield* reply.finish(signal);
}
