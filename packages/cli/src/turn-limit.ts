import type { AssistantMessage, AssistantMessageEvent, StreamFn } from "@tackle/agent-core";

/** What a run stopped by `--max-turns` says in place of the model's next reply. */
export function maxTurnsMessage(maxTurns: number): string {
  const turns = maxTurns === 1 ? "1 turn" : `${maxTurns} turns`;
  return `Stopped after ${turns} (--max-turns ${maxTurns}); the model was not asked again. Run again with a higher --max-turns to go on.`;
}

/** The replies made by {@link limitTurns} in place of the model's (the model was not asked). */
const limitReplies = new WeakSet<AssistantMessage>();

/** True for the reply a `--max-turns` limit made instead of asking the model. */
export function isTurnLimitReply(message: AssistantMessage): boolean {
  return limitReplies.has(message);
}

/**
 * A stream function that asks the model at most `maxTurns` times. The next ask does not reach
 * the model: it ends at once as `stopReason: "aborted"` with {@link maxTurnsMessage}, so the loop
 * ends cleanly after the last allowed turn's tools have run and the transcript says why.
 */
export function limitTurns(streamFn: StreamFn, maxTurns: number, onLimit: () => void): StreamFn {
  let turns = 0;
  return (model, context, options) => {
    turns += 1;
    if (turns <= maxTurns) return streamFn(model, context, options);
    onLimit();
    return stopped(model.id, maxTurnsMessage(maxTurns));
  };
}

async function* stopped(modelId: string, errorMessage: string): AsyncGenerator<AssistantMessageEvent> {
  const message: AssistantMessage = {
    role: "assistant",
    content: [],
    stopReason: "aborted",
    errorMessage,
    model: modelId,
    timestamp: Date.now(),
  };
  limitReplies.add(message);
  yield { type: "error", message };
}
