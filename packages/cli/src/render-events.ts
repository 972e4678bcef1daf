import type { AgentEvent, Message, Usage } from "@tackle/agent-core";
import { isTurnLimitReply } from "./turn-limit.js";

/** How many lines of a tool result the event log shows. */
export const RESULT_PREVIEW_LINES = 8;

function textOf(message: Message): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .filter((part): part is { type: "text"; text: string } => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");
}

function preview(text: string): string {
  const lines = text.split("\n");
  if (lines.length <= RESULT_PREVIEW_LINES) return text;
  return `${lines.slice(0, RESULT_PREVIEW_LINES).join("\n")}\n… ${lines.length - RESULT_PREVIEW_LINES} more lines`;
}

/** Token counts summed over a run's replies: "1,234 input + 56 output tokens", or "" when none were reported. */
export function formatUsage(messages: readonly Message[]): string {
  const total: Required<Pick<Usage, "inputTokens" | "outputTokens">> = { inputTokens: 0, outputTokens: 0 };
  let reported = false;
  for (const message of messages) {
    if (message.role !== "assistant" || message.usage === undefined) continue;
    reported = true;
    total.inputTokens += message.usage.inputTokens ?? 0;
    total.outputTokens += message.usage.outputTokens ?? 0;
  }
  if (!reported) return "";
  const n = (value: number) => value.toLocaleString("en-US");
  return `${n(total.inputTokens)} input + ${n(total.outputTokens)} output tokens`;
}

/** Options of {@link createEventRenderer}. */
export interface EventRendererOptions {
  /** Print the assistant's text as it streams (a real model), not once its message ends. */
  streamText?: boolean;
}

/**
 * Turns agent events into readable lines for a terminal, timing each tool call. Returns a
 * function that takes an event and returns the text to print (possibly empty).
 */
export function createEventRenderer(
  now: () => number = () => performance.now(),
  options: EventRendererOptions = {},
) {
  const started = new Map<string, number>();
  const runStart = now();
  let turns = 0;
  let lineOpen = false;
  return (event: AgentEvent): string => {
    switch (event.type) {
      case "turn_start":
        turns++;
        return "";
      case "message_update": {
        if (!options.streamText) return "";
        const update = event.assistantMessageEvent;
        if (update.type === "text_start") {
          lineOpen = true;
          return "assistant: ";
        }
        if (update.type === "text_delta") return update.delta;
        if (update.type === "text_end") {
          lineOpen = false;
          return "\n";
        }
        return "";
      }
      case "message_end": {
        if (event.message.role === "user") return `user: ${textOf(event.message)}\n`;
        if (event.message.role !== "assistant") return "";
        // The turn a --max-turns limit stopped never reached the model: not one of its turns.
        if (isTurnLimitReply(event.message)) turns--;
        const text = textOf(event.message);
        const failed = event.message.stopReason === "error" || event.message.stopReason === "aborted";
        // A streamed reply cut off mid-text still needs its line ended.
        const open = lineOpen ? "\n" : "";
        lineOpen = false;
        if (failed)
          return `${open}model ${event.message.stopReason}: ${event.message.errorMessage ?? "no message"}\n`;
        return text && !options.streamText ? `assistant: ${text}\n` : "";
      }
      case "tool_execution_start":
        started.set(event.toolCallId, now());
        return `→ ${event.toolName} ${JSON.stringify(event.args)}\n`;
      case "tool_execution_end": {
        const body = event.result.content
          .map((part) => (part.type === "text" ? part.text : `[image ${part.mimeType}]`))
          .join("\n");
        const at = started.get(event.toolCallId);
        // An end without a start: the call never ran (blocked, invalid, aborted...).
        if (at === undefined) {
          return `✗ ${event.toolName} not run (${event.errorCode ?? "error"})\n${indent(preview(body), "  │ ")}\n`;
        }
        const ms = Math.round(now() - at);
        const status = event.isError ? "error" : "ok";
        return `← ${event.toolName} ${status} (${ms} ms)\n${indent(preview(body), "  │ ")}\n`;
      }
      case "agent_end": {
        const usage = formatUsage(event.messages);
        return `done: ${turns} ${turns === 1 ? "turn" : "turns"}, ${event.messages.length} messages, ${usage ? `${usage}, ` : ""}${Math.round(now() - runStart)} ms\n`;
      }
      default:
        return "";
    }
  };
}
