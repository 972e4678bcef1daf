import type { ToolOutcome } from "@tackle/agent-core";

/** The text parts of an outcome, joined: what a provider tool's string result carries. */
export function outcomeText(outcome: ToolOutcome): string {
  return outcome.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
}
