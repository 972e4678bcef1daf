import {
  type AgentToolResult,
  type AnyAgentTool,
  executeToolCalls,
  type InvokeToolOptions,
  invokeTool,
  type ToolCall,
  type ToolCallConfig,
  type ToolOutcome,
} from "@tackle/agent-core";
import { runApprovedCall } from "@tackle/extensions";
import { type JSONSchema7, jsonSchema, type ModelMessage, type Tool, type ToolSet } from "ai";
import { type DetailsOption, outputJsonSchema, type SdkToolOutput, shapeOutput } from "./sdk-output.js";
import { approvedInMessages } from "./tool-approval.js";
import { type ContextToolSet, type ToolContext, type ToolsForContext, toolsOfCall } from "./tool-context.js";
import { toToolResultOutput } from "./tool-output.js";
import { listTools, type ToolList, toolParameters } from "./tool-schemas.js";

/** A progress report of a running tool, as {@link AISDKToolsOptions.onUpdate} receives it. */
export interface ToolUpdate {
  toolCallId: string;
  toolName: string;
  partialResult: AgentToolResult;
}

/** Options of {@link toAISDKTools}. */
export interface AISDKToolsOptions
  extends Pick<ToolCallConfig, "beforeToolCall" | "afterToolCall" | "abortGraceMs"> {
  /** Send schemas in OpenAI's strict form (see `toStrictJsonSchema`); a schema that cannot be strict is sent as is. */
  strict?: boolean;
  /** Receives progress of running tools (live shell output, for instance). */
  onUpdate?: (update: ToolUpdate) => void;
  /**
   * Also stream progress as the SDK's preliminary tool results (`tool-result` parts with
   * `preliminary: true`, which `useChat` shows while the tool runs). Default false.
   */
  preliminaryResults?: boolean;
  /**
   * What of each result's `details` the output carries (see {@link DetailsOption}). Use `"none"`
   * (or a function) when the SDK's stream goes to a browser: details hold host paths.
   */
  details?: DetailsOption;
  /**
   * Runs each call on the Tackle tools its AI SDK context picks (the typed `context` of AI SDK 7:
   * `toolsContext` of `generateText` and `streamText`, see `toolsContextFor`): one `ToolSet`,
   * defined once from `tools` (names, descriptions, schemas), serving a session per user or per
   * request. A context whose set lacks the called tool answers `tool_not_found`.
   */
  toolsFor?: ToolsForContext<never>;
}

type Progress = (partial: AgentToolResult) => void;

/**
 * The tools as an AI SDK `ToolSet`, for `generateText`, `streamText` and the SDK's agents.
 *
 * `execute` runs each call the way the Tackle loop does: through `invokeTool` (lenient
 * arguments, validation, error mapping), or, when hooks are given, through the loop's executor
 * for that one call (hooks, validation of replaced arguments, abort grace). The SDK's
 * `abortSignal` aborts the tool. The output is our `ToolOutcome`; a failed call is an outcome
 * with `isError: true`, never a thrown error, so the model reads the message and its next step
 * as an `error-text` result. `toModelOutput` sends text as text and images as image parts.
 *
 * Hooks see this one call: `assistantMessage` holds only it and `context.messages` is empty
 * (the SDK owns the conversation).
 *
 * Every tool has an `outputSchema` (the outcome's JSON Schema). A call that a person approved
 * through the SDK's tool approval (see `toolApprovalFor`) runs as approved: the shell policy's
 * `ask` for it is not asked again.
 *
 * @example
 * ```ts
 * const tools = toAISDKTools(createCodingTools({ context }));
 * const result = await generateText({ model, tools, prompt, stopWhen: stepCountIs(20) });
 * ```
 */
export function toAISDKTools<CONTEXT extends ToolContext, NAME extends string>(
  tools: Readonly<Record<NAME, AnyAgentTool>>,
  options: Omit<AISDKToolsOptions, "toolsFor"> & { toolsFor: ToolsForContext<CONTEXT> },
): ContextToolSet<CONTEXT, NAME>;
export function toAISDKTools<CONTEXT extends ToolContext>(
  tools: readonly AnyAgentTool[],
  options: Omit<AISDKToolsOptions, "toolsFor"> & { toolsFor: ToolsForContext<CONTEXT> },
): ContextToolSet<CONTEXT>;
export function toAISDKTools(tools: ToolList<AnyAgentTool>, options?: AISDKToolsOptions): ToolSet;
export function toAISDKTools(tools: ToolList<AnyAgentTool>, options: AISDKToolsOptions = {}): ToolSet {
  const all = listTools(tools);
  const set: ToolSet = {};
  for (const tool of all) set[tool.name] = toSdkTool(tool, all, options);
  return set;
}

function toSdkTool(tool: AnyAgentTool, all: readonly AnyAgentTool[], options: AISDKToolsOptions): Tool {
  const parameters = toolParameters(tool, options.strict === true);
  const { onUpdate } = options;
  const progressOf = (toolCallId: string): Progress | undefined =>
    onUpdate === undefined
      ? undefined
      : (partialResult) => onUpdate({ toolCallId, toolName: tool.name, partialResult });
  const shape = (outcome: ToolOutcome) => shapeOutput(outcome, options.details, tool.name);
  const call = (
    input: unknown,
    toolCallId: string,
    messages: ModelMessage[],
    signal?: AbortSignal,
    context?: unknown,
  ) => {
    const picked = options.toolsFor
      ? toolsOfCall(options.toolsFor, context as never, tool.name)
      : { tool, all };
    if ("content" in picked) return Promise.resolve(shape(picked));
    const run = (progress: Progress | undefined) =>
      runCall(picked.tool, picked.all, input, toolCallId, signal, progress, options).then(shape);
    const approved = approvedInMessages(messages, toolCallId);
    const inScope = <T>(start: () => T): T => (approved ? runApprovedCall(toolCallId, start) : start());
    return options.preliminaryResults === true
      ? inScope(() => withPreliminaryResults(run, progressOf(toolCallId) ?? (() => {}), shape))
      : inScope(() => run(progressOf(toolCallId)));
  };
  const sdkTool: Tool = {
    description: tool.description,
    inputSchema: jsonSchema(parameters.schema as JSONSchema7),
    outputSchema: jsonSchema<SdkToolOutput>(outputJsonSchema(options.details !== "none")),
    execute: (input, { toolCallId, abortSignal, messages, context }) =>
      call(input, toolCallId, messages, abortSignal, context),
    toModelOutput: ({ output }) => {
      const outcome = output as SdkToolOutput;
      return toToolResultOutput(outcome.content, outcome.isError);
    },
  };
  if (parameters.strict) sdkTool.strict = true;
  return sdkTool;
}

/** Runs one call; never throws (both paths map every failure to an error outcome). */
async function runCall(
  tool: AnyAgentTool,
  all: readonly AnyAgentTool[],
  input: unknown,
  toolCallId: string,
  signal: AbortSignal | undefined,
  progress: Progress | undefined,
  options: AISDKToolsOptions,
): Promise<ToolOutcome> {
  const { beforeToolCall, afterToolCall, abortGraceMs } = options;
  if (beforeToolCall === undefined && afterToolCall === undefined) {
    const invokeOptions: InvokeToolOptions = { toolCallId };
    if (progress !== undefined) invokeOptions.onUpdate = progress;
    if (signal !== undefined) invokeOptions.signal = signal;
    if (abortGraceMs !== undefined) invokeOptions.abortGraceMs = abortGraceMs;
    return invokeTool(tool, input, invokeOptions);
  }
  const call: ToolCall = {
    type: "toolCall",
    id: toolCallId,
    name: tool.name,
    arguments: input as Record<string, unknown>,
  };
  let outcome: ToolOutcome | undefined;
  await executeToolCalls([call], {
    assistantMessage: { role: "assistant", content: [call], stopReason: "toolUse", timestamp: Date.now() },
    context: { messages: [], tools: [...all] },
    config: { beforeToolCall, afterToolCall, ...(abortGraceMs === undefined ? {} : { abortGraceMs }) },
    signal,
    emit: (event) => {
      if (event.type === "tool_execution_update") progress?.(event.partialResult);
      else if (event.type === "tool_execution_end") outcome = event.result;
    },
  });
  // executeToolCalls ends every call it is given with tool_execution_end.
  return outcome!;
}

/**
 * Runs a call as an async iterable: each progress report is yielded as a preliminary outcome
 * (the SDK streams it as a preliminary tool result), the final outcome last. The call starts at
 * once, not at the first `next()`, so it runs in the caller's async context (an approved call's
 * scope included).
 */
function withPreliminaryResults(
  start: (progress: Progress) => Promise<SdkToolOutput>,
  report: Progress,
  shape: (outcome: ToolOutcome) => SdkToolOutput,
): AsyncGenerator<SdkToolOutput> {
  const queue: AgentToolResult[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const running = start((partial) => {
    report(partial);
    queue.push(partial);
    wake?.();
  });
  void running.finally(() => {
    done = true;
    wake?.();
  });
  return (async function* () {
    for (;;) {
      for (let partial = queue.shift(); partial !== undefined; partial = queue.shift()) {
        yield shape({ content: partial.content, details: partial.details, isError: false });
      }
      if (done) break;
      // Nothing can be queued between the drain above and this wait: both run in one tick.
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    yield await running;
  })();
}
