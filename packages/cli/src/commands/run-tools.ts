/**
 * `tackle run --tool-format`: which tools a model gets. Models are trained on their provider's
 * own tool shapes and do better with them, so for a provider that defines a set (OpenAI:
 * apply_patch and shell; Anthropic: the text editor text_editor_20250728 and bash_20250124) the
 * run gives the model that set, on the same context (path policy, mutation queue, stale reads,
 * atomic writes, the shell pipeline and sandbox, audit), instead of Tackle's read, write, edit
 * and bash. `tackle` keeps Tackle's own set.
 */
import type { AnyAgentTool } from "@tackle/agent-core";
import { type AnyToolDefinition, definitionOf, wrapToolDefinition } from "@tackle/extensions";
import type { ShellToolOptions } from "@tackle/tools";
import { createAnthropicNativeTools, createOpenAINativeTools } from "@tackle/tools/native";
import type { CliSession } from "../session.js";
import { UsageError } from "../usage-error.js";

/** The values of `--tool-format`. */
export const TOOL_FORMATS = ["auto", "native", "tackle"] as const;

/** `--tool-format`: `auto` (default) picks the native set for a model known to take it. */
export type ToolFormat = (typeof TOOL_FORMATS)[number];

/** The providers with a native tool set. */
export type NativeProvider = "openai" | "anthropic";

/**
 * Whether a model of the provider takes its native set: OpenAI's apply_patch and shell tools
 * are for GPT-5.1 and later; text_editor_20250728 is for the Claude 4 models and later.
 */
const TAKES_NATIVE: Record<NativeProvider, (modelId: string) => boolean> = {
  openai: (id) => {
    const version = /^gpt-(\d+)(?:\.(\d+))?/.exec(id);
    if (!version) return false;
    const major = Number(version[1]);
    return major > 5 || (major === 5 && Number(version[2] ?? 0) >= 1);
  },
  anthropic: (id) => {
    const family = /^claude-(?:opus|sonnet|haiku)-(\d+)/.exec(id);
    return family !== null && Number(family[1]) >= 4;
  },
};

/** The tools a native set does the work of: the session drops them when it uses the set. */
const COVERED_TOOLS: ReadonlySet<string> = new Set([
  "read",
  "write",
  "edit",
  "apply_patch",
  "bash",
  "powershell",
  "jobs",
]);

/** `--tool-format` checked: one of {@link TOOL_FORMATS}. */
export function parseToolFormat(text: string | undefined): ToolFormat {
  if (text === undefined) return "auto";
  if ((TOOL_FORMATS as readonly string[]).includes(text)) return text as ToolFormat;
  throw new UsageError(`--tool-format takes ${TOOL_FORMATS.join(", ")}; got "${text}".`);
}

/** What the run was asked for, as far as the choice of tools goes. */
export interface ToolFormatRequest {
  format: ToolFormat;
  /** `--model`'s provider and model id. */
  provider: string;
  modelId: string;
  /** `--tools` was given. */
  toolsListed: boolean;
  readOnly: boolean;
}

/**
 * The native set to use, or `undefined` for Tackle's own tools. `auto` uses it for a model known
 * to take it, unless `--tools` or `--read-only` chose the tools; `native` asks for it (a usage
 * error for a provider without one, or with `--read-only`: the set writes files).
 */
export function chooseNativeSet(request: ToolFormatRequest): NativeProvider | undefined {
  const { format, provider, modelId } = request;
  if (format === "tackle") return undefined;
  const native = Object.hasOwn(TAKES_NATIVE, provider) ? (provider as NativeProvider) : undefined;
  if (format === "auto") {
    if (native === undefined || request.toolsListed || request.readOnly) return undefined;
    return TAKES_NATIVE[native](modelId) ? native : undefined;
  }
  if (native === undefined) {
    throw new UsageError(
      `--tool-format native: ${provider} defines no tool set of its own (openai and anthropic do). Use --tool-format tackle, or leave the flag out.`,
    );
  }
  if (request.readOnly) {
    throw new UsageError(
      "--tool-format native gives the model tools that write files; it cannot go with --read-only. Drop one of them.",
    );
  }
  return native;
}

/**
 * Puts the provider's native set in the session in place of the Tackle tools it covers (read,
 * write, edit, apply_patch, bash, powershell, jobs); the other chosen tools (grep, find, ls)
 * stay, their hints naming only tools the model has. Same context, same shell options.
 */
export function useNativeTools(
  session: CliSession,
  provider: NativeProvider,
  shell: ShellToolOptions | undefined,
): void {
  const kept = [...session.definitions].filter(([name]) => !COVERED_TOOLS.has(name));
  const options = { context: session.context, ...(shell ? { shell } : {}) };
  const keptNames = kept.map(([name]) => name);
  const native: Record<string, AnyAgentTool> = {
    ...(provider === "openai"
      ? createOpenAINativeTools(options, keptNames)
      : createAnthropicNativeTools(options, keptNames)),
  };
  const toolNames = [...Object.keys(native), ...keptNames];
  session.tools.clear();
  session.definitions.clear();
  for (const [name, tool] of Object.entries(native)) {
    session.tools.set(name, tool);
    session.definitions.set(name, definitionOf(tool) as AnyToolDefinition);
  }
  for (const [name, definition] of kept) {
    session.tools.set(
      name,
      wrapToolDefinition(definition, () => session.context, { toolNames }) as AnyAgentTool,
    );
    session.definitions.set(name, definition);
  }
}
