import type { AgentEvent, Message } from "@tackle/agent-core";

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

/**
 * Turns agent events into readable lines for a terminal, timing each tool call. Returns a
 * function that takes an event and returns the text to print (possibly empty).
 */
export function createEventRenderer(now: () => number = () => performance.now()) {
  const started = new Map<string, number>();
  const runStart = now();
  let turns = 0;
  return (event: AgentEvent): string => {
    switch (event.type) {
      case "turn_start":
        turns++;
        return "";
      case "message_end": {
        if (event.message.role === "user") return `user: ${textOf(event.message)}\n`;
        if (event.message.role !== "assistant") return "";
        const text = textOf(event.message);
        const failed = event.message.stopReason === "error" || event.message.stopReason === "aborted";
        if (failed)
          return `model ${event.message.stopReason}: ${event.message.errorMessage ?? "no message"}\n`;
        return text ? `assistant: ${text}\n` : "";
      }
      case "tool_execution_start":
        started.set(event.toolCallId, now());
        return `→ ${event.toolName} ${JSON.stringify(event.args)}\n`;
      case "tool_execution_end": {
        const ms = Math.round(now() - (started.get(event.toolCallId) ?? now()));
        const body = event.result.content
          .map((part) => (part.type === "text" ? part.text : `[image ${part.mimeType}]`))
          .join("\n");
        const status = event.isError ? "error" : "ok";
        return `← ${event.toolName} ${status} (${ms} ms)\n${indent(preview(body), "  │ ")}\n`;
      }
      case "agent_end":
        return `done: ${turns} turns, ${event.messages.length} messages, ${Math.round(now() - runStart)} ms\n`;
      default:
        return "";
    }
  };
}
