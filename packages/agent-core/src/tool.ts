import type { Static, TSchema } from "@sinclair/typebox";
import type { ImageContent, TextContent } from "./messages.js";
import type { CoreErrorCode, ErrorCodeMeanings } from "./tool-error.js";
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
 * A tool whose shape a model provider defines and trains its models on (OpenAI's `apply_patch`
 * and `shell`, Anthropic's `text_editor_20250728` and `bash_20250124`), set on an
 * {@link AgentTool} that implements it. A host talking to that provider declares it as the
 * provider's own tool instead of a function with `parameters` (`@tackle/ai-sdk` sends it as the
 * AI SDK's provider tool); the tool still runs here, and to any other provider it is an
 * ordinary function tool.
 */
export interface ProviderToolSpec {
  /** `<provider>.<tool>`, as the AI SDK names provider tools: `openai.apply_patch`, `anthropic.bash_20250124`. */
  id: `${string}.${string}`;
  /** The tool's settings as the provider takes them (`{ maxCharacters: 20000 }`); default none. */
  args?: Record<string, unknown>;
  /**
   * The result the provider expects back, a JSON value made from the call's outcome (OpenAI's
   * apply_patch: `{ status, output }`). Absent: the outcome's text and images, as for any tool.
   */
  toResult?: (outcome: ToolOutcome) => unknown;
}

/**
 * A tool the model can call. `TErrorCode` is the union of the codes it declares in
 * {@link AgentTool.errorCodes} (inferred from them; none by default).
 *
 * @example
 * ```ts
 * const echo: AgentTool<typeof params> = {
 *   name: "echo", label: "Echo", description: "Echo text back.", parameters: Type.Object({ text: Type.String() }),
 *   async execute(_id, { text }) { return { content: [{ type: "text", text }], details: {} }; },
 * };
 * ```
 */
export interface AgentTool<
  TParams extends TSchema = TSchema,
  TDetails = unknown,
  TErrorCode extends string = never,
> {
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
  /**
   * The codes this tool fails with beyond the core's (`CORE_ERROR_CODES`), each with what it
   * means, for docs, descriptions and hosts. A `ToolError` it throws must carry a core code or
   * one of these: `invokeTool` reports any other code as `execution_failed` (a tool author's bug),
   * keeping the message and naming the code in `details.undeclaredCode`.
   *
   * @example
   * ```ts
   * errorCodes: { no_match: "oldText was not found in the file." },
   * ```
   */
  errorCodes?: ErrorCodeMeanings<TErrorCode>;
  /** Set when the tool implements a provider-defined tool (see {@link ProviderToolSpec}). */
  providerTool?: ProviderToolSpec;
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

/** Any tool, whatever its schema and error codes. */
export type AnyAgentTool = AgentTool<any, any, any>;

/**
 * The codes a call of `TTool` may fail with: the core's and those the tool declares (of each
 * member, for a union of tools). Any string for `AnyAgentTool`, whose codes are not known.
 *
 * @example
 * ```ts
 * type EditCode = ToolErrorCode<typeof edit>; // CoreErrorCode | "no_match" | "ambiguous_match" | ...
 * ```
 */
export type ToolErrorCode<TTool extends AnyAgentTool = AnyAgentTool> =
  | CoreErrorCode
  | (TTool extends AgentTool<any, any, infer C> ? (string extends C ? string : C) : never);

/**
 * Outcome of a tool call (see `invokeTool`): never a thrown exception. `TErrorCode` is what
 * `errorCode` may be (any code by default; `ToolErrorCode<typeof tool>` for one tool's).
 */
export interface ToolOutcome<TDetails = unknown, TErrorCode extends string = string> {
  content: (TextContent | ImageContent)[];
  details: TDetails;
  isError: boolean;
  terminate?: boolean;
  /** Set on error outcomes: the code hosts branch on (never the message text). */
  errorCode?: TErrorCode;
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
export type ToolFailure<TErrorCode extends string = string> = ToolOutcome<unknown, TErrorCode> & {
  isError: true;
  errorCode: TErrorCode;
};

/**
 * What `invokeTool` resolves to for a tool whose details are `TDetails` and whose codes are
 * `TErrorCode` (by default the core's: a tool that declares none): test `isError` to get the
 * typed details, and the code.
 *
 * @example
 * ```ts
 * const outcome = await invokeTool(read, { path: "a.ts" });
 * if (outcome.isError) console.error(outcome.errorCode);
 * else console.log(outcome.details.totalLines); // ReadDetails
 * ```
 */
export type InvokeToolOutcome<TDetails = unknown, TErrorCode extends string = CoreErrorCode> =
  | ToolSuccess<TDetails>
  | ToolFailure<TErrorCode>;

/** The parameter type of a tool (of each member, for a union of tools). */
export type ToolParams<T extends AnyAgentTool> = T extends AgentTool<infer P, any, any> ? Static<P> : never;

/** The details type of a tool (of each member, for a union of tools); `unknown` for `AnyAgentTool`. */
export type ToolDetails<T extends AnyAgentTool> =
  T extends AgentTool<any, infer D, any> ? (0 extends 1 & D ? unknown : D) : never;

/**
 * The arguments a caller may hand to `invokeTool`: raw input typed `unknown` (model or MCP JSON,
 * checked at run time), or, when the caller writes them, the tool's own parameter type.
 */
export type ToolArguments<T extends AnyAgentTool, TArgs> = unknown extends TArgs ? TArgs : ToolParams<T>;
