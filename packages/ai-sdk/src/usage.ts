import type { Usage } from "@tackle/agent-core";
import type { LanguageModelUsage } from "ai";

/** The AI SDK's usage as ours; counts the provider did not report stay absent. */
export function toUsage(usage: LanguageModelUsage | undefined): Usage | undefined {
  if (usage === undefined) return undefined;
  const out: Usage = {};
  const set = (key: keyof Usage, value: number | undefined) => {
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  };
  set("inputTokens", usage.inputTokens);
  set("outputTokens", usage.outputTokens);
  set("cacheReadTokens", usage.inputTokenDetails?.cacheReadTokens);
  set("cacheWriteTokens", usage.inputTokenDetails?.cacheWriteTokens);
  set("reasoningTokens", usage.outputTokenDetails?.reasoningTokens);
  set("totalTokens", usage.totalTokens);
  return Object.keys(out).length === 0 ? undefined : out;
}
