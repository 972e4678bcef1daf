import { AbortDeadline, GAVE_UP, promiseOf } from "./abort-race.js";
import type { AgentEvent } from "./events.js";
import type { AgentLoopConfig } from "./loop-config.js";
import type { AssistantMessage } from "./messages.js";
import type { AssistantMessageEvent, ModelContext } from "./model.js";

const ABORTED = "Request was aborted.";

/**
 * Streams one assistant reply and emits `message_start`, `message_update`s and `message_end`.
 * Must not throw: a stream that throws (against the StreamFn contract) or ends without a final
 * message becomes an assistant message with `stopReason: "error"`, so the run ends cleanly. On
 * abort it stops reading at once (the partial message so far, `stopReason: "aborted"`), even
 * when the stream itself ignores the signal.
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
  let latest: AssistantMessage | undefined;
  const options = signal === undefined ? {} : { signal };
  let iterator: AsyncIterator<AssistantMessageEvent> | undefined;
  // A stream that ignores the signal must not hold the run: stop reading the moment it fires.
  // One deadline for all reads of this reply, not a subscription per event.
  const deadline = signal === undefined ? undefined : new AbortDeadline(signal, 0);
  try {
    iterator = config.streamFn(config.model, context, options)[Symbol.asyncIterator]();
    for (;;) {
      const next = iterator.next();
      const read = deadline === undefined ? await next : await deadline.next(next);
      if (read === GAVE_UP) {
        void promiseOf(() => iterator?.return?.()).catch(() => {});
        final = abortedMessage(config, latest);
        break;
      }
      if (read.done === true) break;
      const event = read.value;
      if (event.type === "done" || event.type === "error") {
        final = event.message;
        break;
      }
      latest = event.partial;
      start(event.partial);
      if (event.type !== "start")
        emit({ type: "message_update", message: event.partial, assistantMessageEvent: event });
    }
  } catch (error) {
    final = failedMessage(
      config,
      `Model stream failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    deadline?.release();
  }
  if (final === undefined) {
    const aborted = signal?.aborted === true;
    final = failedMessage(config, aborted ? ABORTED : "Model stream ended without a final message.");
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

/** The reply as far as it streamed, marked aborted; a copy, since the stream may still change its partial. */
function abortedMessage(config: AgentLoopConfig, partial: AssistantMessage | undefined): AssistantMessage {
  const base = partial ?? failedMessage(config, ABORTED);
  return {
    ...base,
    content: base.content.map((block) => ({ ...block })),
    stopReason: "aborted",
    errorMessage: ABORTED,
  };
}
