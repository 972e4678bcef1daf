import type { AgentEvent, Message, TextContent } from "@tackle/agent-core";
import type { UIMessageChunk } from "ai";
import { type DetailsOption, shapeOutput } from "./sdk-output.js";

/** Options of {@link createUIMessageChunks}. */
export interface UIMessageChunksOptions {
  /**
   * What of each result's `details` reaches the UI (see `DetailsOption`). Default `"none"`: a UI
   * stream usually ends in a browser, and details hold host paths.
   */
  details?: DetailsOption;
}

/**
 * Translates the events of a Tackle `Agent` (or `agentLoop`) run into the AI SDK's UI message
 * chunks, for `createUIMessageStream` and so for `useChat` clients: text and reasoning deltas,
 * each tool call's input when its arguments are complete, live progress as preliminary outputs,
 * the result (or its error text), steps per turn, and a failed model reply as an `error` chunk.
 * Keeps the little state it needs (part ids per turn); make one per run.
 *
 * @example
 * ```ts
 * const stream = createUIMessageStream({
 *   execute: async ({ writer }) => {
 *     const toChunks = createUIMessageChunks();
 *     const unsubscribe = agent.subscribe((event) => {
 *       for (const chunk of toChunks(event)) writer.write(chunk);
 *     });
 *     await agent.prompt(text);
 *     unsubscribe();
 *   },
 * });
 * return createUIMessageStreamResponse({ stream });
 * ```
 */
export function createUIMessageChunks(
  options: UIMessageChunksOptions = {},
): (event: AgentEvent) => UIMessageChunk[] {
  const details = options.details ?? "none";
  let turn = 0;
  return (event) => {
    switch (event.type) {
      case "agent_start":
        return [{ type: "start" }];
      case "turn_start":
        turn++;
        return [{ type: "start-step" }];
      case "message_update": {
        const update = event.assistantMessageEvent;
        if (update.type === "done" || update.type === "start" || update.type === "error") return [];
        const id = `${turn}-${update.contentIndex}`;
        switch (update.type) {
          case "text_start":
            return [{ type: "text-start", id }];
          case "text_delta":
            return [{ type: "text-delta", id, delta: update.delta }];
          case "text_end":
            return [{ type: "text-end", id }];
          case "thinking_start":
            return [{ type: "reasoning-start", id }];
          case "thinking_delta":
            return [{ type: "reasoning-delta", id, delta: update.delta }];
          case "thinking_end":
            return [{ type: "reasoning-end", id }];
          case "toolcall_end": {
            const call = update.toolCall;
            return [
              {
                type: "tool-input-available",
                toolCallId: call.id,
                toolName: call.name,
                input: call.arguments,
              },
            ];
          }
          default:
            return [];
        }
      }
      case "message_end":
        return failedReply(event.message);
      case "tool_execution_update": {
        const partial = {
          content: event.partialResult.content,
          details: event.partialResult.details,
          isError: false,
        };
        const output = shapeOutput(partial, details, event.toolName);
        return [{ type: "tool-output-available", toolCallId: event.toolCallId, output, preliminary: true }];
      }
      case "tool_execution_end":
        if (event.isError) {
          const errorText = event.result.content
            .filter((part): part is TextContent => part.type === "text")
            .map((part) => part.text)
            .join("\n");
          return [{ type: "tool-output-error", toolCallId: event.toolCallId, errorText }];
        }
        return [
          {
            type: "tool-output-available",
            toolCallId: event.toolCallId,
            output: shapeOutput(event.result, details, event.toolName),
          },
        ];
      case "turn_end":
        return [{ type: "finish-step" }];
      case "agent_end":
        return [{ type: "finish" }];
      default:
        return [];
    }
  };
}

/** A model reply that ended in an error, as the UI's `error` chunk. */
function failedReply(message: Message): UIMessageChunk[] {
  if (message.role !== "assistant" || message.stopReason !== "error") return [];
  return [{ type: "error", errorText: message.errorMessage ?? "The model request failed." }];
}
