import type { Static, TSchema } from "@sinclair/typebox";
import type { AgentToolResult, AgentToolUpdateCallback } from "@tackle/agent-core";
import type { ExtensionContext } from "./context.js";
import type { ToolDefinition } from "./tool-definition.js";

/**
 * What {@link defineTool} accepts: a {@link ToolDefinition} whose `execute` result type is
 * inferred. (`onUpdate` takes partial results with any details: were it typed by the details
 * type, TypeScript would fix that type before reading `execute`'s return and infer `unknown`.)
 */
export type ToolDefinitionInput<TParams extends TSchema, TResult extends AgentToolResult<unknown>> = Omit<
  ToolDefinition<TParams, TResult["details"]>,
  "execute"
> & {
  execute(
    toolCallId: string,
    params: Static<TParams>,
    signal: AbortSignal | undefined,
    onUpdate: AgentToolUpdateCallback | undefined,
    ctx: ExtensionContext,
  ): Promise<TResult>;
};

/**
 * Declares a tool definition. Returns it unchanged; it exists for inference: `params` in
 * `execute` is typed from the TypeBox `parameters`, and the details type from what `execute`
 * returns, so nobody restates either.
 *
 * @example
 * ```ts
 * const greet = defineTool({
 *   name: "greet", label: "Greet", description: "Greets someone.", annotations: { readOnlyHint: true },
 *   parameters: Type.Object({ name: Type.String() }),
 *   async execute(_id, { name }) { return { content: [{ type: "text", text: `hi ${name}` }], details: { name } }; },
 * });
 * // greet: ToolDefinition<TObject<{ name: TString }>, { name: string }>
 * ```
 */
export function defineTool<TParams extends TSchema, TResult extends AgentToolResult<unknown>>(
  definition: ToolDefinitionInput<TParams, TResult>,
): ToolDefinition<TParams, TResult["details"]> {
  return definition as ToolDefinition<TParams, TResult["details"]>;
}
