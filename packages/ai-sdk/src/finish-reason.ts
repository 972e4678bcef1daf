import type { StopReason } from "@tackle/agent-core";

/** Model-facing texts of finish reasons that end a run as an error. */
export const FINISH_MESSAGES = {
  contentFilter: "The provider's content filter stopped the reply.",
  error: "The provider ended the reply with an error and gave no message.",
  interrupted: "The provider interrupted the reply before it finished.",
} as const;

/**
 * Maps a provider's unified finish reason to our stop reason. `length` stays `length` (the
 * executor then refuses the cut-off calls); a reply that holds tool calls is `toolUse` whatever
 * else the provider said (some OpenAI-compatible servers say `stop`); `content-filter`, `error`
 * and `interrupted` end the run with a message that says why.
 */
export function toStopReason(
  finishReason: string | undefined,
  hasToolCalls: boolean,
): { stopReason: StopReason; errorMessage?: string } {
  switch (finishReason) {
    case "length":
      return { stopReason: "length" };
    case "content-filter":
      return { stopReason: "error", errorMessage: FINISH_MESSAGES.contentFilter };
    case "error":
      return { stopReason: "error", errorMessage: FINISH_MESSAGES.error };
    case "interrupted":
      return { stopReason: "error", errorMessage: FINISH_MESSAGES.interrupted };
    default:
      return { stopReason: hasToolCalls ? "toolUse" : "stop" };
  }
}
