import type { Static, TSchema } from "@sinclair/typebox";
import type { AgentToolResult, AgentToolUpdateCallback } from "@tackle/agent-core";
import type { ExtensionContext } from "./context.js";
import type { ToolDefinition } from "./tool-definition.js";

/**
 * What {@link defineTool} accepts: a {@link ToolDefinition} whose `execute` result type is
 * inferred. (`onUpdate` takes partial results with any details: were it typed by the details
 * type, TypeScript would fix that type before reading `execute`'s return and infer `unknown`.)
 */
export type ToolDefinitionInput<
  TParams extends TSchema,
  TResult extends AgentToolResult<unknown>,
  TErrorCode extends string = never,
> = Omit<ToolDefinition<TParams, TResult["details"], TErrorCode>, "execute"> & {
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
 * `execute` is typed from the TypeBox `parameters`, the details type from what `execute`
 * returns, and the tool's own error codes from `errorCodes`, so nobody restates any of them.
 *
 * @example
 * ```ts
 * const greet = defineTool({
 *   name: "greet", label: "Greet", description: "Greets someone.", annotations: { readOnlyHint: true },
 *   parameters: Type.Object({ name: Type.String() }),
 *   errorCodes: { unknown_person: "Nobody of that name is known." },
 *   async execute(_id, { name }) {
 *     if (name === "") throw new ToolError("unknown_person", "Nobody is called that. Ask the user for the name.");
 *     return { content: [{ type: "text", text: `hi ${name}` }], details: { name } };
 *   },
 * });
 * // greet: ToolDefinition<TObject<{ name: TString }>, { name: string }, "unknown_person">
 * ```
 */
export function defineTool<
  TParams extends TSchema,
  TResult extends AgentToolResult<unknown>,
  TErrorCode extends string = never,
>(
  definition: ToolDefinitionInput<TParams, TResult, TErrorCode>,
): ToolDefinition<TParams, TResult["details"], TErrorCode> {
  return definition as ToolDefinition<TParams, TResult["details"], TErrorCode>;
}
