import type { Usage } from "@tackle/agent-core";
import type { PartUsage } from "./normalize-part.js";

/** A provider's usage as ours; counts the provider did not report stay absent. */
export function toUsage(usage: PartUsage | undefined): Usage | undefined {
  if (usage === undefined) return undefined;
  const out: Usage = {};
  const set = (key: keyof Usage, value: number | undefined) => {
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  };
  set("inputTokens", usage.inputTokens?.total);
  set("outputTokens", usage.outputTokens?.total);
  set("cacheReadTokens", usage.inputTokens?.cacheRead);
  set("cacheWriteTokens", usage.inputTokens?.cacheWrite);
  set("reasoningTokens", usage.outputTokens?.reasoning);
  if (out.inputTokens !== undefined || out.outputTokens !== undefined)
    out.totalTokens = (out.inputTokens ?? 0) + (out.outputTokens ?? 0);
  return Object.keys(out).length === 0 ? undefined : out;
}
