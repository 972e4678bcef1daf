import type { AgentEvent, AgentEventType, ToolOutcome } from "@tackle/agent-core";
import type { ExtensionContext, Logger } from "./context.js";
import type { AnyToolDefinition } from "./tool-definition.js";

/** A tool call about to run, as `tool_call` handlers see it. */
export interface ToolCallEvent<TInput = Record<string, unknown>> {
  type: "tool_call";
  toolCallId: string;
  toolName: string;
  /** Arguments after validation, or as rewritten by an earlier handler. */
  input: TInput;
}

/** What a `tool_call` handler may return: block the call, or rewrite its input (validated again). */
export interface ToolCallEventResult {
  block?: boolean;
  /** Model-facing: why, and what to do instead. */
  reason?: string;
  input?: Record<string, unknown>;
}

/**
 * A finished tool call, as `tool_result` handlers see it (the latest patched state).
 * `TErrorCode`: what `errorCode` may be (any code by default).
 */
export interface ToolResultEvent<
  TInput = Record<string, unknown>,
  TDetails = unknown,
  TErrorCode extends string = string,
> {
  type: "tool_result";
  toolCallId: string;
  toolName: string;
  input: TInput;
  content: ToolOutcome["content"];
  details: TDetails;
  isError: boolean;
  /** Set when `isError`: the code hosts branch on (a core code or one the tool declares). */
  errorCode?: TErrorCode;
}

/**
 * What a `tool_result` handler may return: each field present replaces that field. An error
 * made without an `errorCode` gets `blocked`; a success drops the code.
 */
export interface ToolResultPatch {
  content?: ToolOutcome["content"];
  details?: unknown;
  isError?: boolean;
  /** A core code, one the tool declares, or the host's own (a handler speaks for the host). */
  errorCode?: string;
}

type Awaitable<T> = T | Promise<T>;

/** Handler of each event name. Agent events are observed (return nothing); tool events steer the call. */
export interface ExtensionHandlers {
  tool_call: (
    event: ToolCallEvent,
    ctx: ExtensionContext,
    // biome-ignore lint/suspicious/noConfusingVoidType: lets a handler be `async () => {}` or return nothing
  ) => Awaitable<ToolCallEventResult | undefined | void>;
  tool_result: (
    event: ToolResultEvent,
    ctx: ExtensionContext,
    // biome-ignore lint/suspicious/noConfusingVoidType: lets a handler be `async () => {}` or return nothing
  ) => Awaitable<ToolResultPatch | undefined | void>;
}

/** Names `api.on` accepts: the agent events plus `tool_call` and `tool_result`. */
export type ExtensionEventName = AgentEventType | keyof ExtensionHandlers;

/** The handler type for an event name. */
export type ExtensionHandler<E extends ExtensionEventName> = E extends keyof ExtensionHandlers
  ? ExtensionHandlers[E]
  : (event: Extract<AgentEvent, { type: E }>) => Awaitable<void>;

/** A slash-style command an extension offers to the host (`/name args`). */
export interface ExtensionCommand {
  description: string;
  run(args: string, ctx: ExtensionContext): Awaitable<void>;
}

/** What `setup` gets: the only way an extension changes the agent. */
export interface ExtensionAPI {
  /** Name of the extension being set up. */
  readonly name: string;
  /** Logger of the runner, prefixed with the extension name. */
  readonly logger: Logger;
  /** Adds a tool, or overrides a built-in one of the same name. */
  registerTool(definition: AnyToolDefinition): void;
  registerCommand(name: string, command: ExtensionCommand): void;
  /** Subscribes to an event. Handlers of one event run in load order. */
  on<E extends ExtensionEventName>(event: E, handler: ExtensionHandler<E>): void;
}

/** An extension: a name and a setup that registers tools, commands and handlers. */
export interface Extension {
  name: string;
  setup(api: ExtensionAPI): Awaitable<void>;
}

/**
 * Declares an extension (returns it unchanged; gives `api` its type).
 *
 * @example
 * ```ts
 * export default defineExtension({
 *   name: "no-env-writes",
 *   setup(api) {
 *     api.on("tool_call", (event) =>
 *       event.toolName === "write" && String(event.input.path).endsWith(".env")
 *         ? { block: true, reason: "Blocked: .env holds secrets. Ask the user to edit it." }
 *         : undefined);
 *   },
 * });
 * ```
 */
export function defineExtension(extension: Extension): Extension {
  return extension;
}
