import type { Static, TSchema } from "@sinclair/typebox";
import type { AgentTool, AgentToolResult, AgentToolUpdateCallback, ApprovalCheck } from "@tackle/agent-core";
import type { ExtensionContext } from "./context.js";

/** MCP-style hints about what a tool does. */
export interface ToolAnnotations {
  /** The tool does not change its environment. */
  readOnlyHint?: boolean;
  /** The tool may destroy or overwrite data. */
  destructiveHint?: boolean;
  /** Calling it twice with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool may reach outside the workspace (network, other machines). */
  openWorldHint?: boolean;
}

/**
 * An `AgentTool` whose `execute` also receives the {@link ExtensionContext}, built at call time.
 * `TErrorCode` is the union of the codes it declares in `errorCodes` (inferred by `defineTool`;
 * none by default): the failures of its own kind, beside the core's (`CORE_ERROR_CODES`).
 */
export interface ToolDefinition<
  TParams extends TSchema = TSchema,
  TDetails = unknown,
  TErrorCode extends string = never,
> extends Omit<AgentTool<TParams, TDetails, TErrorCode>, "execute" | "checkApproval"> {
  /** One line for the system prompt's tool list. */
  promptSnippet?: string;
  /** Guidelines added to the system prompt when this tool is active (deduplicated across tools). */
  promptGuidelines?: string[];
  annotations: ToolAnnotations;
  execute(
    toolCallId: string,
    params: Static<TParams>,
    signal: AbortSignal | undefined,
    onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
    ctx: ExtensionContext,
  ): Promise<AgentToolResult<TDetails>>;
  /**
   * `AgentTool.checkApproval` with the call's context: whether a call needs a person's approval
   * or is refused, said before it runs. Must not throw.
   */
  checkApproval?(
    params: Static<TParams>,
    ctx: ExtensionContext,
    signal?: AbortSignal,
  ): Promise<ApprovalCheck>;
}

/** Any tool definition, whatever its schema and error codes. */
export type AnyToolDefinition = ToolDefinition<any, any, any>;
