import type { AnyAgentTool, AssistantMessageEvent, Model, ModelContext, StreamFn } from "@tackle/agent-core";
import type { LanguageModel } from "ai";
import { normalizePart } from "./normalize-part.js";
import { type ProviderLanguageModel, resolveLanguageModel } from "./provider-model.js";
import { toProviderPrompt } from "./provider-prompt.js";
import { declareProviderTool, type JsonResults, jsonResultsFor, providerToolFor } from "./provider-tools.js";
import { ReplyBuilder } from "./reply-builder.js";
import { withRetries } from "./retry.js";
import type { ProviderOptions } from "./sdk-types.js";
import { toolParameters } from "./tool-schemas.js";

/** Options of {@link aiSdkModel}: the call settings sent with every turn. */
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
  /**
   * Retries of a request the provider failed temporarily (rate limits, overload, 5xx), waiting as
   * it asks or with exponential backoff from 2 s. Default 2, as in the AI SDK.
   */
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
 * Each turn is one call of the model's `doStream`, the streaming interface every AI SDK provider
 * package implements: the provider package speaks HTTP and its wire format, the loop runs the
 * tools (lenient arguments, hooks, validation, the executor's rules). What the provider streams
 * becomes our assistant-message events: text, reasoning and tool-call deltas, the finish reason
 * as `stopReason` (`length` included), usage, provider errors as `stopReason: "error"` with the
 * provider's message; our abort signal aborts the request.
 *
 * @example
 * ```ts
 * import { anthropic } from "@ai-sdk/anthropic";
 * const agent = new Agent({ ...aiSdkModel(anthropic("claude-sonnet-4-5")), tools });
 * await agent.prompt("Fix the failing test");
 * ```
 */
export function aiSdkModel(languageModel: LanguageModel, options: AiSdkModelOptions = {}): AiSdkModel {
  const provider = resolveLanguageModel(languageModel);
  const {
    model: identity,
    strictTools = false,
    toolChoice,
    imagesInToolResults,
    maxRetries,
    ...settings
  } = options;
  const model: Model = { id: provider.modelId, provider: provider.provider, ...identity };
  const turn: Turn = {
    provider,
    settings,
    toolChoice: toolChoice === undefined ? undefined : toProviderToolChoice(toolChoice),
    strictTools,
    imagesInResults: imagesInToolResults ?? !provider.provider.endsWith(".chat"),
    maxRetries,
    toolSets: new WeakMap(),
    jsonResults: new WeakMap(),
  };
  const streamFn: StreamFn = (_model, context, { signal }) => streamTurn(turn, model.id, context, signal);
  return { model, streamFn };
}

/** What every turn of one model shares. */
interface Turn {
  provider: ProviderLanguageModel;
  settings: Omit<
    AiSdkModelOptions,
    "model" | "strictTools" | "toolChoice" | "imagesInToolResults" | "maxRetries"
  >;
  toolChoice: Record<string, unknown> | undefined;
  strictTools: boolean;
  imagesInResults: boolean;
  maxRetries: number | undefined;
  /** Provider tool lists, per tool array of the loop (it keeps one array per run). */
  toolSets: WeakMap<readonly AnyAgentTool[], unknown[]>;
  /** The results that go back as JSON (provider-defined tools), per tool array. */
  jsonResults: WeakMap<readonly AnyAgentTool[], JsonResults>;
}

/** One turn. Never throws: every failure ends the stream with an `error` event (the StreamFn contract). */
async function* streamTurn(
  turn: Turn,
  modelId: string,
  context: ModelContext,
  signal: AbortSignal | undefined,
): AsyncGenerator<AssistantMessageEvent> {
  const reply = new ReplyBuilder(modelId);
  yield reply.start();
  const spec = turn.provider.specificationVersion;
  let reader: ReadableStreamDefaultReader<unknown> | undefined;
  try {
    const call: Record<string, unknown> = {
      ...turn.settings,
      prompt: toProviderPrompt(
        context.systemPrompt,
        context.messages,
        spec,
        turn.imagesInResults,
        jsonResultsOf(turn, context.tools),
      ),
      includeRawChunks: false,
      ...(signal === undefined ? {} : { abortSignal: signal }),
    };
    if (context.tools.length > 0) {
      call.tools = providerTools(turn, context.tools);
      if (turn.toolChoice !== undefined) call.toolChoice = turn.toolChoice;
    }
    const { stream } = await withRetries(() => turn.provider.doStream(call), {
      ...(turn.maxRetries === undefined ? {} : { maxRetries: turn.maxRetries }),
      ...(signal === undefined ? {} : { signal }),
    });
    reader = stream.getReader();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      yield* reply.apply(normalizePart(next.value, spec));
    }
    reader = undefined;
  } catch (error) {
    reply.fail(error);
  } finally {
    // Stopped early (the loop gave up on an abort): let the provider close the request.
    void reader?.cancel().catch(() => {});
  }
  yield* reply.finish(signal);
}

/**
 * The tools as the provider specification lists them: function tools with JSON Schema input, and
 * a tool that implements one of this provider's own tools (`providerTool`) as that tool.
 */
function providerTools(turn: Turn, tools: readonly AnyAgentTool[]): unknown[] {
  let list = turn.toolSets.get(tools);
  if (list === undefined) {
    const { provider } = turn;
    list = tools.map((tool) => {
      const native = providerToolFor(tool, provider.provider);
      if (native !== undefined) return declareProviderTool(native, tool.name, provider.specificationVersion);
      const { schema, strict } = toolParameters(tool, turn.strictTools);
      const described: Record<string, unknown> = {
        type: "function",
        name: tool.name,
        description: tool.description,
        inputSchema: schema,
      };
      if (strict && turn.provider.specificationVersion !== "v2") described.strict = true;
      return described;
    });
    turn.toolSets.set(tools, list);
  }
  return list;
}

function jsonResultsOf(turn: Turn, tools: readonly AnyAgentTool[]): JsonResults {
  let results = turn.jsonResults.get(tools);
  if (results === undefined) {
    results = jsonResultsFor(tools, turn.provider.provider);
    turn.jsonResults.set(tools, results);
  }
  return results;
}

function toProviderToolChoice(choice: NonNullable<AiSdkModelOptions["toolChoice"]>): Record<string, unknown> {
  return typeof choice === "string" ? { type: choice } : { type: "tool", toolName: choice.toolName };
}
