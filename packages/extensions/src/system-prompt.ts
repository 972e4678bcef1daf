import type { AgentTool } from "@tackle/agent-core";
import type { AnyToolDefinition } from "./tool-definition.js";
import { definitionOf } from "./wrap-tool-definition.js";

/** Options of {@link buildSystemPrompt}. */
export interface SystemPromptOptions {
  /** Text before the tool sections (who the agent is, the task). */
  base?: string;
  /** The active tools: definitions, or tools made by `wrapToolDefinition` (plain tools list their description's first line). */
  tools: readonly (AnyToolDefinition | AgentTool)[];
  /** More guidelines from the host, merged and deduplicated with the tools' own. */
  guidelines?: readonly string[];
}

/**
 * Assembles the system prompt from the active tools: one line per tool (its `promptSnippet`,
 * else the first line of its description), then every `promptGuidelines` entry once, in the
 * order first seen. Only active tools contribute, so a guideline about a missing tool never
 * reaches the model.
 */
export function buildSystemPrompt(options: SystemPromptOptions): string {
  const toolLines: string[] = [];
  const guidelines = new Set<string>();
  for (const tool of options.tools) {
    const definition = "annotations" in tool ? tool : (definitionOf(tool) ?? tool);
    const snippet =
      ("promptSnippet" in definition ? definition.promptSnippet : undefined) ??
      definition.description.split("\n")[0]?.trim();
    toolLines.push(`- ${definition.name}: ${snippet}`);
    const own = "promptGuidelines" in definition ? (definition.promptGuidelines ?? []) : [];
    for (const line of own) guidelines.add(line.trim());
  }
  for (const line of options.guidelines ?? []) guidelines.add(line.trim());
  const sections: string[] = [];
  if (options.base !== undefined && options.base.trim() !== "") sections.push(options.base.trim());
  if (toolLines.length > 0) sections.push(["Available tools:", ...toolLines].join("\n"));
  if (guidelines.size > 0) sections.push(["Guidelines:", ...[...guidelines].map((g) => `- ${g}`)].join("\n"));
  return sections.join("\n\n");
}
