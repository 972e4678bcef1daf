import type { Static, TSchema } from "@sinclair/typebox";
import type { ImageContent, TextContent } from "./messages.js";
import type { ToolErrorCode } from "./tool-error.js";
import type { ArgumentProblem } from "./validation-message.js";

/** What a tool returns on success. */
export interface AgentToolResult<TDetails = unknown> {
  /** What the model sees. */
  content: (TextContent | ImageContent)[];
  /** Structured data for UIs and logs; never parsed back into model text. */
  details: TDetails;
  /** Ask the loop to stop after this batch (only honoured when every result in the batch asks). */
  terminate?: boolean;
}

/**
 * What a tool says about a call before it runs (see {@link AgentTool.checkApproval}): it may run,
 * it needs a person's approval, or it is refused. `reason` is written for the person who
 * approves (and, on `deny`, for the model: it names what was refused and what to do instead).
 */
export type ApprovalCheck = { verdict: "allow" } | { verdict: "ask" | "deny"; reason: string };

/** Streams a partial result while a tool runs (e.g. live shell output). */
export type AgentToolUpdateCallback<TDetails = unknown> = (partial: AgentToolResult<TDetails>) => void;

/**
 * A tool the model can call.
 *
 * @example
 * ```ts
 * const echo: AgentTool<typeof params> = {
 *   name: "echo", label: "Echo", description: "Echo text back.", parameters: Type.Object({ text: Type.String() }),
 *   async execute(_id, { text }) { return { content: [{ type: "text", text }], details: {} }; },
 * };
 * ```
 */
export interface AgentTool<TParams extends TSchema = TSchema, TDetails = unknown> {
  /** Name the model calls it by. */
  name: string;
  /** Human-readable name for UIs. */
  label: string;
  /** Written for the model: when to use it, parameters, returns, limits, recovery. */
  description: string;
  /** TypeBox schema of the arguments. */
  parameters: TParams;
  /**
   * Repairs common model mistakes before validation (e.g. arguments sent as a JSON string). Must
   * not throw for odd input; return it unchanged. To refuse arguments that no repair or lenient
   * coercion may guess at (a JSON number where the exact text matters), throw
   * `new ToolError("invalid_arguments", message, { details: { problems } })` with
   * {@link ArgumentProblem}s: the call answers `invalid_arguments` listing them, as validation
   * would. Any other throw is ignored and the arguments as sent are validated.
   */
  prepareArguments?: (raw: unknown) => unknown;
  /** `sequential` makes any batch that contains this tool run one call at a time. Default `parallel`. */
  executionMode?: "parallel" | "sequential";
  /**
   * Says before a call runs whether it needs a person's approval or is refused, for hosts that
   * ask people ahead of the call (the AI SDK's tool approval) instead of while it runs. The shell
   * tools answer with their command policy; a tool without it always runs. The tool still
   * enforces its policy when it runs. `params` are validated arguments. Must not throw: a check
   * that cannot decide answers `ask`.
   */
  checkApproval?(params: Static<TParams>, signal?: AbortSignal): Promise<ApprovalCheck>;
  /**
   * Runs the tool. Signal failure by throwing (preferably a {@link ToolError}); the executor
   * turns it into a result with `isError: true`.
   */
  execute(
    toolCallId: string,
    params: Static<TParams>,
    signal: AbortSignal | undefined,
    onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
  ): Promise<AgentToolResult<TDetails>>;
}

/** Any tool, whatever its schema. */
export type AnyAgentTool = AgentTool<any, any>;

/** Outcome of a tool call (see `invokeTool`): never a thrown exception. */
export interface ToolOutcome<TDetails = unknown> {
  content: (TextContent | ImageContent)[];
  details: TDetails;
  isError: boolean;
  terminate?: boolean;
  /** Set on error outcomes: the {@link ToolErrorCode} hosts branch on (never the message text). */
  errorCode?: ToolErrorCode;
}

/** A successful {@link ToolOutcome}: `details` is what the tool returned. */
export type ToolSuccess<TDetails = unknown> = ToolOutcome<TDetails> & {
  isError: false;
  errorCode?: undefined;
};

/**
 * A failed {@link ToolOutcome}: `errorCode` is always set, and `details` is whatever the failure
 * carried (a validation problem list, a ToolError's details), not the tool's details type.
 */
export type ToolFailure = ToolOutcome<unknown> & { isError: true; errorCode: ToolErrorCode };

/**
 * What `invokeTool` resolves to for a tool whose details are `TDetails`: test `isError` to get
 * the typed details.
 *
 * @example
 * ```ts
 * const outcome = await invokeTool(read, { path: "a.ts" });
 * if (outcome.isError) console.error(outcome.errorCode);
 * else console.log(outcome.details.totalLines); // ReadDetails
 * ```
 */
export type InvokeToolOutcome<TDetails = unknown> = ToolSuccess<TDetails> | ToolFailure;

/** The parameter type of a tool (of each member, for a union of tools). */
export type ToolParams<T extends AnyAgentTool> = T extends AgentTool<infer P, any> ? Static<P> : never;

/** The details type of a tool (of each member, for a union of tools); `unknown` for `AnyAgentTool`. */
export type ToolDetails<T extends AnyAgentTool> =
  T extends AgentTool<any, infer D> ? (0 extends 1 & D ? unknown : D) : never;

/**
 * The arguments a caller may hand to `invokeTool`: raw input typed `unknown` (model or MCP JSON,
 * checked at run time), or, when the caller writes them, the tool's own parameter type.
 */
export type ToolArguments<T extends AnyAgentTool, TArgs> = unknown extends TArgs ? TArgs : ToolParams<T>;
