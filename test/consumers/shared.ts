import type { ToolOutcome } from "@tackle/agent-core";

/** The text a model would read from an outcome. */
export function textOf(outcome: ToolOutcome): string {
  return outcome.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
}

/** Fails the run with the outcome's text when it is an error. */
export function expectOk(label: string, outcome: ToolOutcome): string {
  if (outcome.isError)
    throw new Error(`${label} failed (${outcome.errorCode ?? "no code"}): ${textOf(outcome)}`);
  return textOf(outcome);
}
