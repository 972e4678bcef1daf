import type { Static, TSchema } from "@sinclair/typebox";
import {
  type AgentTool,
  type AgentToolResult,
  type AgentToolUpdateCallback,
  isToolError,
  ToolError,
} from "@tackle/agent-core";
import { isOperationError } from "@tackle/operations";
import { contextForCall } from "./call-context.js";
import type { ToolSession } from "./context.js";
import { mapEscapedError, toToolError } from "./operation-errors.js";
import type { AnyToolDefinition, ToolDefinition } from "./tool-definition.js";

/** What a context factory knows about the call it builds a context for. */
export interface ToolCallInfo {
  toolCallId: string;
  toolName: string;
  /** The call's abort signal; it becomes `ctx.signal`. */
  signal: AbortSignal | undefined;
}

/**
 * Gives the session of one call (see {@link ToolSession}; a context from `createToolContext` is
 * one). Called at call time, so a host swaps environment or session by returning a different
 * one. The call's own context is made from it by {@link contextForCall}.
 */
export type ExtensionContextFactory = (call: ToolCallInfo) => ToolSession | Promise<ToolSession>;

/** Options of {@link wrapToolDefinition}. */
export interface WrapToolOptions {
  /**
   * The tools the model is given with this one (see `CallInfo.toolNames`): its hints then name
   * only these. The set factories of `@tackle/tools` pass their set.
   */
  toolNames?: readonly string[];
}

const definitions = new WeakMap<AgentTool, AnyToolDefinition>();

/**
 * Turns a {@link ToolDefinition} into an `AgentTool` whose `execute` asks `contextFactory` for
 * the context of each call. The tool object never changes when the environment does.
 *
 * @example
 * ```ts
 * let ctx = localContext;
 * const tool = wrapToolDefinition(readDefinition, () => ctx);
 * ctx = sshContext; // the next call of the same tool runs over SSH
 * ```
 */
export function wrapToolDefinition<TParams extends TSchema, TDetails, TErrorCode extends string = never>(
  definition: ToolDefinition<TParams, TDetails, TErrorCode>,
  contextFactory: ExtensionContextFactory,
  options: WrapToolOptions = {},
): AgentTool<TParams, TDetails, TErrorCode> {
  const { toolNames } = options;
  const tool: AgentTool<TParams, TDetails, TErrorCode> = {
    name: definition.name,
    label: definition.label,
    description: definition.description,
    parameters: definition.parameters,
    async execute(
      toolCallId: string,
      params: Static<TParams>,
      signal: AbortSignal | undefined,
      onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
    ): Promise<AgentToolResult<TDetails>> {
      const call = { toolCallId, toolName: definition.name, signal };
      const session = await sessionOf(contextFactory, call);
      const context = contextForCall(session, { ...call, annotations: definition.annotations, toolNames });
      try {
        return await definition.execute(toolCallId, params, signal, onUpdate, context);
      } catch (error) {
        // One mapping for what a tool lets escape: an environment failure while resolving a
        // path keeps its code (connection_lost) instead of becoming "check the arguments".
        throw mapEscapedError(error, context);
      }
    },
  };
  if (definition.prepareArguments !== undefined) tool.prepareArguments = definition.prepareArguments;
  if (definition.providerTool !== undefined) tool.providerTool = definition.providerTool;
  if (definition.executionMode !== undefined) tool.executionMode = definition.executionMode;
  if (definition.errorCodes !== undefined) tool.errorCodes = definition.errorCodes;
  const check = definition.checkApproval;
  if (check !== undefined) {
    tool.checkApproval = async (params, signal) => {
      try {
        const call = { toolCallId: "", toolName: definition.name, signal };
        const context = contextForCall(await sessionOf(contextFactory, call), { ...call, toolNames });
        return await check.call(definition, params, context, signal);
      } catch (error) {
        // Must not throw: a check that cannot decide leaves it to a person.
        const reason = error instanceof Error ? error.message : String(error);
        return { verdict: "ask", reason: `${definition.name} could not check this call ahead (${reason}).` };
      }
    };
  }
  definitions.set(tool as AgentTool, definition as AnyToolDefinition);
  return tool;
}

/**
 * Asks the factory for a call's session. A factory failure is the host's (no environment, a
 * lost connection), not the model's: it becomes a ToolError saying so, while a ToolError from
 * the factory (a stale context) keeps its code and an OperationError (connection_lost) its
 * code family.
 */
async function sessionOf(factory: ExtensionContextFactory, call: ToolCallInfo): Promise<ToolSession> {
  try {
    return await factory(call);
  } catch (error) {
    if (isToolError(error)) throw error;
    if (isOperationError(error)) throw toToolError(error, "the environment");
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError(
      "execution_failed",
      `Not run: ${call.toolName} could not get its environment (${reason}). Tell the user; retrying will not help until the environment is back.`,
      { cause: error },
    );
  }
}

/**
 * The definition a tool was wrapped from, when it came from {@link wrapToolDefinition}. Used
 * for prompt assembly and annotations of active tools.
 */
export function definitionOf(tool: AgentTool<TSchema, unknown>): AnyToolDefinition | undefined {
  return definitions.get(tool as AgentTool);
}

/**
 * The other direction: an `AgentTool` seen as a definition (no annotations, ignores `ctx`).
 * A tool made by {@link wrapToolDefinition} gives back its original definition.
 */
export function createToolDefinitionFromAgentTool<
  TParams extends TSchema,
  TDetails,
  TErrorCode extends string = never,
>(tool: AgentTool<TParams, TDetails, TErrorCode>): ToolDefinition<TParams, TDetails, TErrorCode> {
  const original = definitions.get(tool as AgentTool);
  if (original !== undefined) return original as ToolDefinition<TParams, TDetails, TErrorCode>;
  const definition: ToolDefinition<TParams, TDetails, TErrorCode> = {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    parameters: tool.parameters,
    annotations: {},
    execute: (toolCallId, params, signal, onUpdate) => tool.execute(toolCallId, params, signal, onUpdate),
  };
  if (tool.prepareArguments !== undefined) definition.prepareArguments = tool.prepareArguments;
  if (tool.providerTool !== undefined) definition.providerTool = tool.providerTool;
  if (tool.executionMode !== undefined) definition.executionMode = tool.executionMode;
  if (tool.errorCodes !== undefined) definition.errorCodes = tool.errorCodes;
  const check = tool.checkApproval;
  if (check !== undefined)
    definition.checkApproval = (params, _ctx, signal) => check.call(tool, params, signal);
  return definition;
}
