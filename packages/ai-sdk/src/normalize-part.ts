import type { ProviderMetadata } from "@tackle/agent-core";
import type { SpecVersion } from "./provider-model.js";

/** Token counts as the v3/v4 specs report them. */
export interface PartUsage {
  inputTokens?: { total?: number; noCache?: number; cacheRead?: number; cacheWrite?: number };
  outputTokens?: { total?: number; text?: number; reasoning?: number };
}

/** The stream parts the reply builder reads, in the v3/v4 shape. */
export type StreamPart =
  | {
      type: "text-start" | "text-end" | "reasoning-start" | "reasoning-end";
      id: string;
      providerMetadata?: ProviderMetadata;
    }
  | { type: "text-delta" | "reasoning-delta"; id: string; delta: string; providerMetadata?: ProviderMetadata }
  | {
      type: "tool-input-start";
      id: string;
      toolName: string;
      providerExecuted?: boolean;
      providerMetadata?: ProviderMetadata;
    }
  | { type: "tool-input-delta"; id: string; delta: string; providerMetadata?: ProviderMetadata }
  | { type: "tool-input-end"; id: string; providerMetadata?: ProviderMetadata }
  | {
      type: "tool-call";
      toolCallId: string;
      toolName: string;
      input: string;
      providerExecuted?: boolean;
      providerMetadata?: ProviderMetadata;
    }
  | { type: "finish"; finishReason: { unified: string; raw?: string }; usage?: PartUsage }
  | { type: "error"; error: unknown }
  | { type: "other" };

const OTHER: StreamPart = { type: "other" };

const KNOWN = new Set([
  "text-start",
  "text-end",
  "text-delta",
  "reasoning-start",
  "reasoning-end",
  "reasoning-delta",
  "tool-input-start",
  "tool-input-delta",
  "tool-input-end",
  "tool-call",
  "finish",
  "error",
]);

/**
 * A provider stream part in the v3/v4 shape. v2 differs only in `finish`: its finish reason is a
 * plain string (`unknown` included) and its usage is flat (`inputTokens`, `cachedInputTokens`,
 * `reasoningTokens`). Parts the builder does not read (sources, files, raw chunks, metadata,
 * results of provider-executed tools) become `other`.
 */
export function normalizePart(part: unknown, spec: SpecVersion): StreamPart {
  const type = (part as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !KNOWN.has(type)) return OTHER;
  if (type !== "finish" || spec !== "v2") return part as StreamPart;
  const v2 = part as {
    finishReason: string;
    usage?: {
      inputTokens?: number;
      outputTokens?: number;
      reasoningTokens?: number;
      cachedInputTokens?: number;
    };
  };
  const usage = v2.usage ?? {};
  return {
    type: "finish",
    finishReason: { unified: v2.finishReason, raw: v2.finishReason },
    usage: {
      inputTokens: { total: usage.inputTokens, cacheRead: usage.cachedInputTokens },
      outputTokens: { total: usage.outputTokens, reasoning: usage.reasoningTokens },
    },
  };
}
