// Scripted AI SDK language models for tests, built on the SDK's own MockLanguageModelV3 (ai/test):
// each doStream call takes the next turn of the script and streams its parts exactly as a
// provider implementation would hand them to the SDK (LanguageModelV3StreamPart).
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
} from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

export type StreamPart = LanguageModelV3StreamPart;

/** One turn: its parts, or a function of what the model was sent (to assert on the prompt). */
export type Turn =
  | StreamPart[]
  | ((call: LanguageModelV3CallOptions, index: number) => StreamPart[] | Promise<StreamPart[]>);

/** A mock model that plays `turns` in order; `calls` records what each turn was sent. */
export function scriptedModel(turns: Turn[], options: { provider?: string; modelId?: string } = {}) {
  const calls: LanguageModelV3CallOptions[] = [];
  let next = 0;
  const model = new MockLanguageModelV3({
    provider: options.provider ?? "mock-provider",
    modelId: options.modelId ?? "mock-model",
    doStream: async (call) => {
      calls.push(call);
      const index = next++;
      const turn = turns[index];
      if (turn === undefined)
        throw new Error(`the script has ${turns.length} turns; turn ${index + 1} was requested`);
      const parts = typeof turn === "function" ? await turn(call, index) : turn;
      return { stream: partsStream(parts, call.abortSignal) };
    },
  });
  return {
    model,
    calls,
    get remaining() {
      return turns.length - next;
    },
  };
}

/** A symbol that, placed in a turn, makes the stream wait there until the request is aborted. */
export const HANG: StreamPart = { type: "raw", rawValue: Symbol.for("hang") };

/**
 * Streams parts one per pull. At {@link HANG} it waits for the abort signal and then fails the
 * way fetch does when a request is aborted (an AbortError), as a real provider stream would.
 */
function partsStream(parts: StreamPart[], signal: AbortSignal | undefined): ReadableStream<StreamPart> {
  let index = 0;
  return new ReadableStream<StreamPart>({
    async pull(controller) {
      const part = parts[index++];
      if (part === undefined) {
        controller.close();
        return;
      }
      if (part === HANG) {
        await new Promise<void>((resolve) => {
          if (signal?.aborted) resolve();
          signal?.addEventListener("abort", () => resolve(), { once: true });
        });
        controller.error(new DOMException("This operation was aborted", "AbortError"));
        return;
      }
      controller.enqueue(part);
    },
  });
}

/** A text block in parts: start, one delta per chunk, end. */
export function text(
  value: string,
  id = "text-1",
  chunk = 8,
  providerMetadata?: SharedV3ProviderMetadata,
): StreamPart[] {
  return [
    { type: "text-start", id },
    ...chunks(value, chunk).map((delta): StreamPart => ({ type: "text-delta", id, delta })),
    { type: "text-end", id, ...(providerMetadata ? { providerMetadata } : {}) },
  ];
}

/** A reasoning block; `providerMetadata` rides on the end part (as Anthropic's signature does). */
export function reasoning(
  value: string,
  id = "reasoning-1",
  providerMetadata?: SharedV3ProviderMetadata,
): StreamPart[] {
  return [
    { type: "reasoning-start", id },
    ...chunks(value, 8).map((delta): StreamPart => ({ type: "reasoning-delta", id, delta })),
    { type: "reasoning-end", id, ...(providerMetadata ? { providerMetadata } : {}) },
  ];
}

/** A streamed tool call: input start, argument text in deltas, input end, the final call. */
export function toolCall(id: string, toolName: string, args: unknown, chunk = 10): StreamPart[] {
  const input = typeof args === "string" ? args : JSON.stringify(args);
  return [
    { type: "tool-input-start", id, toolName },
    ...chunks(input, chunk).map((delta): StreamPart => ({ type: "tool-input-delta", id, delta })),
    { type: "tool-input-end", id },
    { type: "tool-call", toolCallId: id, toolName, input },
  ];
}

/** Usage in the V3 shape. */
export function usage(
  input: number,
  output: number,
  extra: { cacheRead?: number; reasoning?: number } = {},
): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: input,
      noCache: input - (extra.cacheRead ?? 0),
      cacheRead: extra.cacheRead,
      cacheWrite: undefined,
    },
    outputTokens: { total: output, text: output - (extra.reasoning ?? 0), reasoning: extra.reasoning },
  };
}

/** The finish part. */
export function finish(
  unified: LanguageModelV3FinishReason["unified"] = "stop",
  used: LanguageModelV3Usage = usage(10, 5),
): StreamPart {
  return { type: "finish", finishReason: { unified, raw: unified }, usage: used };
}

function chunks(value: string, size: number): string[] {
  const out: string[] = [];
  for (let start = 0; start < value.length; start += size) out.push(value.slice(start, start + size));
  return out.length === 0 ? [""] : out;
}
