import { buildSystemPrompt } from "@tackle/extensions";
import type { CliSession } from "./session.js";

/**
 * The system prompt of `tackle run --model`: who the agent is and where it works, then one line
 * per active tool (its prompt snippet) and every guideline the tools bring, once.
 */
export function agentSystemPrompt(session: CliSession): string {
  const base = [
    "You are a coding agent. You work on the project below only through the tools listed.",
    `Working directory: ${session.env.cwd} (environment: ${session.env.operations.id}).`,
    "Look before you change: find and read the relevant code, make the smallest change that solves the task, then check it (run the tests when the project has them).",
    "When you are done, say in a few sentences what you changed and how you checked it.",
  ].join("\n");
  return buildSystemPrompt({ base, tools: [...session.definitions.values()] });
}
