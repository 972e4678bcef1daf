import { EventStream } from "./event-stream.js";
import type { AgentEvent } from "./events.js";
import { executeToolCalls } from "./executor.js";
import type { AgentLoopConfig } from "./loop-config.js";
import type { AssistantMessage, Message, ToolCall } from "./messages.js";
import type { ModelContext } from "./model.js";
import { streamAssistantMessage } from "./stream-assistant.js";

/** The event stream of a run; `result()` resolves to the messages the run added. */
export type AgentEventStream = EventStream<AgentEvent, Message[]>;

/**
 * Runs the agent: sends `context` plus `prompts` to the model, runs the tool calls it asks for,
 * and repeats until the model stops calling tools, the run is aborted, the model fails, or a
 * batch asks to terminate. Events come in this order: `agent_start`; per turn `turn_start`, the
 * turn's input messages, the assistant's `message_*`, `tool_execution_*`, the tool result
 * messages, `turn_end`; finally `agent_end`.
 *
 * With no `prompts` it continues from `context` (its last message should be a user or tool
 * result message). `context` is not mutated.
 *
 * @example
 * ```ts
 * const faux = createFauxModel(["Hello!"]);
 * const run = agentLoop([userMessage("hi")], { messages: [], tools: [] }, faux);
 * for await (const event of run) console.log(event.type);
 * const added = await run.result();
 * ```
 */
export function agentLoop(
  prompts: Message[],
  context: ModelContext,
  config: AgentLoopConfig,
  signal?: AbortSignal,
): AgentEventStream {
  const stream: AgentEventStream = new EventStream();
  const emit = (event: AgentEvent) => stream.push(event);
  const added: Message[] = [];
  runLoop(prompts, context, config, signal, emit, added).then(
    (messages) => stream.end(messages),
    (error: unknown) => {
      // Only a host callback (steering, follow-up) can get here; listeners still see the run end.
      emit({ type: "agent_end", messages: added });
      stream.fail(error);
    },
  );
  return stream;
}

async function runLoop(
  prompts: Message[],
  initial: ModelContext,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
  emit: (event: AgentEvent) => void,
  added: Message[],
): Promise<Message[]> {
  const context: ModelContext = { ...initial, messages: [...initial.messages] };
  const append = (message: Message) => {
    context.messages.push(message);
    added.push(message);
  };
  emit({ type: "agent_start" });
  let pending = prompts;
  for (;;) {
    let moreToolCalls = true;
    while (moreToolCalls || pending.length > 0) {
      emit({ type: "turn_start" });
      for (const message of pending) {
        emit({ type: "message_start", message });
        emit({ type: "message_end", message });
        append(message);
      }
      pending = [];
      const assistant = await streamAssistantMessage(context, config, signal, emit);
      append(assistant);
      if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
        return finish(emit, assistant, [], added);
      }
      const calls = toolCallsOf(assistant);
      const batch = await executeToolCalls(calls, {
        assistantMessage: assistant,
        context,
        config,
        signal,
        emit,
      });
      for (const result of batch.results) append(result);
      emit({ type: "turn_end", message: assistant, toolResults: batch.results });
      if (batch.terminate || signal?.aborted) return end(emit, added);
      // A reply cut by the token limit without tool calls has nothing for the model to react to.
      moreToolCalls = calls.length > 0;
      pending = (await config.getSteeringMessages?.()) ?? [];
    }
    pending = (await config.getFollowUpMessages?.()) ?? [];
    if (pending.length === 0) return end(emit, added);
  }
}

function finish(
  emit: (event: AgentEvent) => void,
  assistant: AssistantMessage,
  toolResults: [],
  added: Message[],
): Message[] {
  emit({ type: "turn_end", message: assistant, toolResults });
  return end(emit, added);
}

function end(emit: (event: AgentEvent) => void, added: Message[]): Message[] {
  emit({ type: "agent_end", messages: added });
  return added;
}

function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((block): block is ToolCall => block.type === "toolCall");
}
