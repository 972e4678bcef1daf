/**
 * The provider-defined tools on a Tackle context, three ways: as `AgentTool`s for the loop (keyed
 * by the names the providers require), as plain functions shaped like the AI SDK's provider-tool
 * `execute` (`openai.tools.applyPatch({ execute })`, `anthropic.tools.textEditor_20250728({ execute })`),
 * and as answers to the vendors' own SDK items (`apply_patch_call`, `shell_call`, `tool_use`).
 */
import { type AgentTool, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { type ExtensionContextFactory, type ToolSession, wrapToolDefinition } from "@tackle/extensions";
import type { ShellToolOptions } from "../shell/tool.js";
import { createAnthropicBashToolDefinition } from "./anthropic-bash.js";
import {
  type AnthropicTextEditorOptions,
  createAnthropicTextEditorToolDefinition,
  TEXT_EDITOR_TOOL_NAME,
} from "./anthropic-text-editor.js";
import {
  createOpenAIApplyPatchToolDefinition,
  type OpenAIApplyPatchOutput,
  toOpenAIApplyPatchOutput,
} from "./openai-apply-patch.js";
import {
  createOpenAIShellToolDefinition,
  type OpenAIShellCommandOutput,
  toOpenAIShellOutput,
} from "./openai-shell.js";
import { outcomeText } from "./outcome-text.js";

/** Options of the native tool sets and handlers. */
export interface NativeToolsOptions {
  /** The context every call runs with, or a factory asked at each call (see `createTools`). */
  context: ToolSession | ExtensionContextFactory;
  /** Options of the shell behind OpenAI's shell and Anthropic's bash (policy, timeouts, limits). */
  shell?: ShellToolOptions;
  /** Options of Anthropic's text editor (`maxCharacters`, the tool's `max_characters`). */
  textEditor?: AnthropicTextEditorOptions;
}

/** OpenAI's provider-defined tools as `AgentTool`s: `apply_patch` and `shell`. */
export interface OpenAINativeTools {
  apply_patch: AgentTool;
  shell: AgentTool;
}

/** Anthropic's provider-defined tools as `AgentTool`s: `str_replace_based_edit_tool` and `bash`. */
export interface AnthropicNativeTools {
  str_replace_based_edit_tool: AgentTool;
  bash: AgentTool;
}

function factoryOf(context: ToolSession | ExtensionContextFactory): ExtensionContextFactory {
  if (context === null || (typeof context !== "object" && typeof context !== "function")) {
    throw new TypeError(
      "The native tools need a context: pass { context: createToolContext({ cwd, operations }) }.",
    );
  }
  return typeof context === "function" ? context : () => context;
}

/**
 * OpenAI's tools on one context (the extra names are tools the model is given beside them, for hints).
 *
 * @example
 * ```ts
 * const { apply_patch, shell } = createOpenAINativeTools({ context });
 * ```
 */
export function createOpenAINativeTools(
  options: NativeToolsOptions,
  alongside: readonly string[] = [],
): OpenAINativeTools {
  const factory = factoryOf(options.context);
  // Hints inside (read's "use ls") then name only tools of this set.
  const set = { toolNames: ["apply_patch", "shell", ...alongside] };
  return {
    apply_patch: wrapToolDefinition(createOpenAIApplyPatchToolDefinition(), factory, set) as AgentTool,
    shell: wrapToolDefinition(createOpenAIShellToolDefinition(options.shell), factory, set) as AgentTool,
  };
}

/** Anthropic's tools on one context. The bash tool holds the session's working directory. */
export function createAnthropicNativeTools(
  options: NativeToolsOptions,
  alongside: readonly string[] = [],
): AnthropicNativeTools {
  const factory = factoryOf(options.context);
  const set = { toolNames: [TEXT_EDITOR_TOOL_NAME, "bash", ...alongside] };
  return {
    str_replace_based_edit_tool: wrapToolDefinition(
      createAnthropicTextEditorToolDefinition(options.textEditor),
      factory,
      set,
    ) as AgentTool,
    bash: wrapToolDefinition(createAnthropicBashToolDefinition(options.shell), factory, set) as AgentTool,
  };
}

/** The second argument of an AI SDK tool's `execute` (what these handlers read of it). */
export interface ProviderToolCallOptions {
  toolCallId?: string;
  abortSignal?: AbortSignal;
}

/** Handlers with the AI SDK provider tools' `execute` signature, backed by Tackle tools. */
export interface NativeToolHandlers {
  openai: {
    /** For `openai.tools.applyPatch({ execute })`: `{ callId, operation }` -> `{ status, output }`. */
    applyPatch(input: unknown, options?: ProviderToolCallOptions): Promise<OpenAIApplyPatchOutput>;
    /** For `openai.tools.shell({ execute })`: `{ action }` -> `{ output: [{ stdout, stderr, outcome }] }`. */
    shell(input: unknown, options?: ProviderToolCallOptions): Promise<{ output: OpenAIShellCommandOutput[] }>;
  };
  anthropic: {
    /** For `anthropic.tools.textEditor_20250728({ execute })`: the result text; throws with the text on error. */
    textEditor(input: unknown, options?: ProviderToolCallOptions): Promise<string>;
    /** For `anthropic.tools.bash_20250124({ execute })`: the result text; throws with the text on error. */
    bash(input: unknown, options?: ProviderToolCallOptions): Promise<string>;
  };
}

let callCounter = 0;

function run(
  tool: AgentTool,
  input: unknown,
  options: ProviderToolCallOptions | undefined,
): Promise<ToolOutcome> {
  return invokeTool(tool, input, {
    toolCallId: options?.toolCallId ?? `native-${++callCounter}`,
    ...(options?.abortSignal ? { signal: options.abortSignal } : {}),
  });
}

/** A tool's error outcome as a thrown error: the AI SDK sends it to the model as an error result. */
export class NativeToolCallError extends Error {
  override readonly name = "NativeToolCallError";
  constructor(readonly outcome: ToolOutcome) {
    super(outcomeText(outcome));
  }
}

/**
 * Handlers for every provider-defined tool Tackle backs, on one context.
 *
 * @example
 * ```ts
 * const native = createNativeToolHandlers({ context });
 * const tools = {
 *   apply_patch: openai.tools.applyPatch({ execute: native.openai.applyPatch }),
 *   shell: openai.tools.shell({ execute: native.openai.shell }),
 * };
 * ```
 */
export function createNativeToolHandlers(options: NativeToolsOptions): NativeToolHandlers {
  const openai = createOpenAINativeTools(options);
  const anthropic = createAnthropicNativeTools(options);
  const text = async (tool: AgentTool, input: unknown, callOptions: ProviderToolCallOptions | undefined) => {
    const outcome = await run(tool, input, callOptions);
    if (outcome.isError) throw new NativeToolCallError(outcome);
    return outcomeText(outcome);
  };
  return {
    openai: {
      applyPatch: async (input, callOptions) =>
        toOpenAIApplyPatchOutput(await run(openai.apply_patch, input, callOptions)),
      shell: async (input, callOptions) => toOpenAIShellOutput(await run(openai.shell, input, callOptions)),
    },
    anthropic: {
      textEditor: (input, callOptions) => text(anthropic.str_replace_based_edit_tool, input, callOptions),
      bash: (input, callOptions) => text(anthropic.bash, input, callOptions),
    },
  };
}
