import { onAbort, promiseOf } from "./abort-race.js";
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
 *
 * Reads with callbacks rather than `await` in a loop: racing every read against the abort took
 * a promise of its own per streamed event, and a reply with 1000 tool calls streams 3000 or more.
 * Here each read is one `then`, and the abort ends the reply through one subscription.
 */
export function streamAssistantMessage(
  context: ModelContext,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: (event: AgentEvent) => void,
): Promise<AssistantMessage> {
  return new Promise((resolve) => {
    let started = false;
    const start = (message: AssistantMessage) => {
      if (started) return;
      started = true;
      emit({ type: "message_start", message });
    };
    let latest: AssistantMessage | undefined;
    let over = false;
    let unsubscribe: (() => void) | undefined;
    let iterator: AsyncIterator<AssistantMessageEvent> | undefined;
    /** Ends the reply once (later reads and a late abort are ignored). */
    const finish = (final: AssistantMessage | undefined) => {
      if (over) return;
      over = true;
      unsubscribe?.();
      let message = final;
      if (message === undefined) {
        const aborted = signal?.aborted === true;
        message = failedMessage(config, aborted ? ABORTED : "Model stream ended without a final message.");
        if (aborted) message.stopReason = "aborted";
      }
      start(message);
      emit({ type: "message_end", message });
      resolve(message);
    };
    const fail = (error: unknown) =>
      finish(
        failedMessage(
          config,
          `Model stream failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    // A stream that ignores the signal must not hold the run: stop reading the moment it fires.
    const abort = () => {
      if (over) return;
      void promiseOf(() => iterator?.return?.()).catch(() => {});
      finish(abortedMessage(config, latest));
    };
    const onRead = (read: IteratorResult<AssistantMessageEvent>) => {
      if (over) return;
      try {
        if (read.done === true) return finish(undefined);
        const event = read.value;
        if (event.type === "done" || event.type === "error") return finish(event.message);
        latest = event.partial;
        start(event.partial);
        if (event.type !== "start")
          emit({ type: "message_update", message: event.partial, assistantMessageEvent: event });
      } catch (error) {
        return fail(error);
      }
      readNext();
    };
    const onReadFailed = (error: unknown) => {
      if (!over) fail(error);
    };
    const readNext = () => {
      try {
        Promise.resolve((iterator as AsyncIterator<AssistantMessageEvent>).next()).then(onRead, onReadFailed);
      } catch (error) {
        fail(error);
      }
    };
    try {
      iterator = config
        .streamFn(config.model, context, signal === undefined ? {} : { signal })
        [Symbol.asyncIterator]();
    } catch (error) {
      return fail(error);
    }
    if (signal?.aborted) return abort();
    if (signal !== undefined) unsubscribe = onAbort(signal, abort);
    readNext();
  });
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
