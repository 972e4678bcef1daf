import type { AgentEvent } from "./events.js";
import type { AgentLoopConfig } from "./loop-config.js";
import type { AssistantMessage } from "./messages.js";
import type { ModelContext } from "./model.js";

/**
 * Streams one assistant reply and emits `message_start`, `message_update`s and `message_end`.
 * Must not throw: a stream that throws (against the StreamFn contract) or ends without a final
 * message becomes an assistant message with `stopReason: "error"`, so the run ends cleanly.
 */
export async function streamAssistantMessage(
  context: ModelContext,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: (event: AgentEvent) => void,
): Promise<AssistantMessage> {
  let started = false;
  const start = (message: AssistantMessage) => {
    if (started) return;
    started = true;
    emit({ type: "message_start", message });
  };
  let final: AssistantMessage | undefined;
  try {
    const options = signal === undefined ? {} : { signal };
    for await (const event of config.streamFn(config.model, context, options)) {
      if (event.type === "done" || event.type === "error") {
        final = event.message;
        break;
      }
      start(event.partial);
      if (event.type !== "start")
        emit({ type: "message_update", message: event.partial, assistantMessageEvent: event });
    }
  } catch (error) {
    final = failedMessage(
      config,
      `Model stream failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (final === undefined) {
    const aborted = signal?.aborted === true;
    final = failedMessage(
      config,
      aborted ? "Request was aborted." : "Model stream ended without a final message.",
    );
    if (aborted) final.stopReason = "aborted";
  }
  start(final);
  emit({ type: "message_end", message: final });
  return final;
}

function failedMessage(config: AgentLoopConfig, errorMessage: string): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    stopReason: "error",
    errorMessage,
    model: config.model.id,
    timestamp: Date.now(),
  };
}
