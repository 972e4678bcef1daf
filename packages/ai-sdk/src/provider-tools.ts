/**
 * Tools that implement a provider-defined tool (`AgentTool.providerTool`: OpenAI's apply_patch
 * and shell, Anthropic's text editor and bash) go to a model of that provider as the provider's
 * own tool (`{ type: "provider", id, name, args }` in the model specification, what
 * `openai.tools.applyPatch()` makes), and their results go back in the shape the provider takes.
 * To a model of any other provider they are ordinary function tools.
 */
import type { AnyAgentTool, ProviderToolSpec, ToolOutcome } from "@tackle/agent-core";
import type { SpecVersion } from "./provider-model.js";

/** The provider part of an id: "openai" of "openai.apply_patch" and of "openai.responses". */
function providerOf(id: string): string {
  const dot = id.indexOf(".");
  return dot === -1 ? id : id.slice(0, dot);
}

/** The tool's provider-defined form when `provider` (the model's, e.g. "openai.responses") is its provider. */
export function providerToolFor(tool: AnyAgentTool, provider: string): ProviderToolSpec | undefined {
  const spec = tool.providerTool;
  return spec !== undefined && providerOf(spec.id) === providerOf(provider) ? spec : undefined;
}

/** The tool as the model specification declares a provider tool (v2 called them "provider-defined"). */
export function declareProviderTool(
  spec: ProviderToolSpec,
  name: string,
  version: SpecVersion,
): Record<string, unknown> {
  return {
    type: version === "v2" ? "provider-defined" : "provider",
    id: spec.id,
    name,
    args: spec.args ?? {},
  };
}

/** How a result goes back as JSON, by tool name, for the tools that are the provider's own to `provider`. */
export type JsonResults = ReadonlyMap<string, (outcome: ToolOutcome) => unknown>;

/** The tools whose results the provider takes back as JSON (see `ProviderToolSpec.toResult`). */
export function jsonResultsFor(tools: readonly AnyAgentTool[], provider: string): JsonResults {
  const results = new Map<string, (outcome: ToolOutcome) => unknown>();
  for (const tool of tools) {
    const toResult = providerToolFor(tool, provider)?.toResult;
    if (toResult !== undefined) results.set(tool.name, toResult);
  }
  return results;
}
