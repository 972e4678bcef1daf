/**
 * The AI SDK's typed tool context (`toolsContext` of `generateText` and `streamText`, `context`
 * in a tool's `execute`) wired to Tackle: one `ToolSet`, defined once, whose calls each run on
 * the Tackle tools the call's context names (a session per user, per request, per workspace).
 */
import { type AnyAgentTool, errorOutcome, type ToolOutcome } from "@tackle/agent-core";
import type { Tool } from "ai";
import type { SdkToolOutput } from "./sdk-output.js";
import { listTools, type ToolList } from "./tool-schemas.js";

/** What the AI SDK accepts as a tool's context: a plain object (its `Context`). */
export type ToolContext = Record<string, unknown>;

/**
 * Picks the Tackle tools that run a call from the call's AI SDK context. The set it returns is
 * looked up by the called tool's name; hooks see that set as the run's tools.
 */
export type ToolsForContext<CONTEXT extends ToolContext> = (context: CONTEXT) => ToolList<AnyAgentTool>;

/**
 * The `ToolSet` of {@link toAISDKTools} with a `toolsFor` option: every tool takes a `CONTEXT`.
 * Made from a by-name object (the `@tackle/tools` factories' result), its keys are the tool
 * names, so `generateText` and `streamText` require a `toolsContext` naming a context for each
 * (see {@link toolsContextFor}); made from a list, its keys are any string.
 */
export type ContextToolSet<CONTEXT extends ToolContext, NAME extends string = string> = Record<
  NAME,
  Tool<unknown, SdkToolOutput, CONTEXT>
>;

/** The run's tools for one call: the set `toolsFor` picks, and the called tool in it. */
export interface ToolsOfCall {
  tool: AnyAgentTool;
  all: readonly AnyAgentTool[];
}

/**
 * The tools that run a call of `name` with `context`, or the error outcome the model reads when
 * the context's set has no such tool (`tool_not_found`) or `toolsFor` threw (`blocked`).
 */
export function toolsOfCall<CONTEXT extends ToolContext>(
  toolsFor: ToolsForContext<CONTEXT>,
  context: CONTEXT,
  name: string,
): ToolsOfCall | ToolOutcome {
  let all: readonly AnyAgentTool[];
  try {
    all = listTools(toolsFor(context));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return errorOutcome("blocked", `The host found no tools for this call's context: ${reason}`);
  }
  const tool = all.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    return errorOutcome(
      "tool_not_found",
      `No tool ${name} for this call's context. Tools there: ${all.map((candidate) => candidate.name).join(", ") || "none"}.`,
    );
  }
  return { tool, all };
}

/**
 * The `toolsContext` of `generateText` or `streamText` that gives every tool of `tools` the same
 * `context`: the AI SDK takes one context per tool name.
 *
 * @example
 * ```ts
 * const tools = toAISDKTools(templateTools, { toolsFor: (context: { user: string }) => toolsOf(context.user) });
 * await generateText({ model, tools, toolsContext: toolsContextFor(tools, { user: "ada" }), prompt });
 * ```
 */
export function toolsContextFor<CONTEXT extends ToolContext, NAME extends string>(
  tools: ContextToolSet<CONTEXT, NAME>,
  context: CONTEXT,
): Record<NAME, CONTEXT> {
  return Object.fromEntries(Object.keys(tools).map((name) => [name, context])) as Record<NAME, CONTEXT>;
}
