import type { AgentEvent } from "@tackle/agent-core";
import type { Progress } from "./progress.js";

/** The last non-empty line of a tool's latest partial output, for the status line. */
function lastLine(partial: unknown): string {
  const content = (partial as { content?: { type: string; text?: string }[] } | undefined)?.content ?? [];
  const text = content.find((part) => part.type === "text")?.text ?? "";
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? ""
  );
}

/**
 * Keeps a {@link Progress} status line on what an agent run waits for: "waiting for the model"
 * from a turn's start until the model's message ends, then "running bash, grep" while tool calls
 * run (with the latest output line of a running command). Returns the event handler.
 */
export function trackRunProgress(progress: Progress): (event: AgentEvent) => void {
  const running = new Map<string, string>();
  const showTools = () =>
    progress.status(running.size > 0 ? `running ${[...new Set(running.values())].join(", ")}` : undefined);
  return (event) => {
    switch (event.type) {
      case "turn_start":
        progress.status("waiting for the model");
        break;
      case "message_end":
        if (event.message.role === "assistant") progress.status(undefined);
        break;
      case "tool_execution_start":
        running.set(event.toolCallId, event.toolName);
        showTools();
        break;
      case "tool_execution_update":
        progress.note(lastLine(event.partialResult));
        break;
      case "tool_execution_end":
        running.delete(event.toolCallId);
        showTools();
        break;
      case "agent_end":
        progress.status(undefined);
        break;
    }
  };
}
