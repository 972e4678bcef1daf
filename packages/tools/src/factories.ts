/**
 * Factories: one tool by name, or the usual sets, as `ToolDefinition`s (context injected by the
 * host) or as ready `AgentTool`s bound to a context. Tools made together share one context, so
 * what read records is what write and edit check.
 */
import type { AgentTool, AnyAgentTool } from "@tackle/agent-core";
import type { AnyToolDefinition, ExtensionContext } from "@tackle/extensions";
import { type ExtensionContextFactory, wrapToolDefinition } from "@tackle/extensions";
import { createToolContext, type ToolContextOptions } from "./context/create-tool-context.js";
import { type BashToolOptions, createBashToolDefinition } from "./tools/bash.js";
import { createEditToolDefinition, type EditToolOptions } from "./tools/edit.js";
import { createFindToolDefinition, type FindToolOptions } from "./tools/find.js";
import { createGrepToolDefinition, type GrepToolOptions } from "./tools/grep.js";
import { createLsToolDefinition } from "./tools/ls.js";
import {
  createPowershellToolDefinition,
  detectPowershell,
  type PowershellToolOptions,
} from "./tools/powershell.js";
import { createReadToolDefinition, type ReadToolOptions } from "./tools/read.js";
import { createWriteToolDefinition } from "./tools/write.js";

/** Names of the eight tools. */
export type ToolName = "read" | "write" | "edit" | "bash" | "grep" | "find" | "ls" | "powershell";

/** Every tool name, in the order `createAllTools` returns them. */
export const ALL_TOOL_NAMES: readonly ToolName[] = [
  "read",
  "write",
  "edit",
  "bash",
  "grep",
  "find",
  "ls",
  "powershell",
];
/** read, bash, edit, write: what a coding agent needs. */
export const CODING_TOOL_NAMES: readonly ToolName[] = ["read", "bash", "edit", "write"];
/** read, grep, find, ls: look, never touch. */
export const READ_ONLY_TOOL_NAMES: readonly ToolName[] = ["read", "grep", "find", "ls"];

/** Options of each tool, by name. */
export interface ToolOptionsByName {
  read: ReadToolOptions;
  write: Record<string, never>;
  edit: EditToolOptions;
  bash: BashToolOptions;
  grep: GrepToolOptions;
  find: FindToolOptions;
  ls: Record<string, never>;
  powershell: PowershellToolOptions;
}

/** Per-tool options for the set factories. */
export type PerToolOptions = { [N in ToolName]?: ToolOptionsByName[N] };

/** The definition `createToolDefinition(name)` returns, by name. */
export interface ToolDefinitionByName {
  read: ReturnType<typeof createReadToolDefinition>;
  write: ReturnType<typeof createWriteToolDefinition>;
  edit: ReturnType<typeof createEditToolDefinition>;
  bash: ReturnType<typeof createBashToolDefinition>;
  grep: ReturnType<typeof createGrepToolDefinition>;
  find: ReturnType<typeof createFindToolDefinition>;
  ls: ReturnType<typeof createLsToolDefinition>;
  powershell: ReturnType<typeof createPowershellToolDefinition>;
}

/**
 * Creates the definition of one tool. It takes its environment from the context handed to
 * `execute` (5th argument), so one definition serves any number of environments.
 */
export function createToolDefinition<N extends ToolName>(
  name: N,
  options?: ToolOptionsByName[N],
): ToolDefinitionByName[N];
export function createToolDefinition(name: ToolName, options: Record<string, unknown> = {}) {
  switch (name) {
    case "read":
      return createReadToolDefinition(options as ReadToolOptions);
    case "write":
      return createWriteToolDefinition();
    case "edit":
      return createEditToolDefinition(options as EditToolOptions);
    case "grep":
      return createGrepToolDefinition(options as GrepToolOptions);
    case "find":
      return createFindToolDefinition(options as FindToolOptions);
    case "ls":
      return createLsToolDefinition();
    case "bash":
      return createBashToolDefinition(options as BashToolOptions);
    case "powershell":
      return createPowershellToolDefinition(options as PowershellToolOptions);
    default:
      throw new TypeError(`Unknown tool name: ${String(name)}`);
  }
}

/** Options of {@link createTool} and the set factories. */
export interface CreateToolsOptions extends Partial<ToolContextOptions> {
  /**
   * The context of every call, or a factory asked at each call (to swap environments). When
   * absent, one context is made with `createToolContext` from the other options (`cwd`
   * defaults to `process.cwd()`, operations to this machine).
   */
  context?: ExtensionContext | ExtensionContextFactory;
  /** Options per tool. */
  tools?: PerToolOptions;
}

function contextFactoryOf(options: CreateToolsOptions): ExtensionContextFactory {
  const { context, tools: _tools, ...contextOptions } = options;
  if (typeof context === "function") return context;
  const ctx = context ?? createToolContext({ ...contextOptions, cwd: contextOptions.cwd ?? process.cwd() });
  return () => ctx;
}

function createTools(names: readonly ToolName[], options: CreateToolsOptions): AnyAgentTool[] {
  const factory = contextFactoryOf(options);
  return names.map((name) => {
    const definition: AnyToolDefinition = createToolDefinition(name, options.tools?.[name] as never);
    return wrapToolDefinition(definition, factory);
  });
}

/** Creates one tool, bound to a context (see {@link CreateToolsOptions.context}). */
export function createTool(name: ToolName, options: CreateToolsOptions = {}): AgentTool {
  return createTools([name], options)[0]! as AgentTool;
}

/** read, bash, edit, write, sharing one context. */
export function createCodingTools(options: CreateToolsOptions = {}): AnyAgentTool[] {
  return createTools(CODING_TOOL_NAMES, options);
}

/** read, grep, find, ls, sharing one context. */
export function createReadOnlyTools(options: CreateToolsOptions = {}): AnyAgentTool[] {
  return createTools(READ_ONLY_TOOL_NAMES, options);
}

/**
 * All eight tools, sharing one context. powershell is included whatever the environment; where
 * pwsh is missing its calls fail with `not_supported` and say to use bash. Use
 * {@link createAvailableTools} to leave it out where it cannot run.
 */
export function createAllTools(options: CreateToolsOptions = {}): AnyAgentTool[] {
  return createTools(ALL_TOOL_NAMES, options);
}

/**
 * All eight tools minus powershell when the environment has no pwsh (asked through its `exec`,
 * cached per environment). Needs a context (not a factory) or context options.
 */
export async function createAvailableTools(options: CreateToolsOptions = {}): Promise<AnyAgentTool[]> {
  const factory = contextFactoryOf(options);
  const ctx = await factory({ toolCallId: "probe", toolName: "powershell", signal: undefined });
  const pwsh = await detectPowershell(ctx.operations, { cwd: ctx.cwd });
  const names = pwsh.available ? ALL_TOOL_NAMES : ALL_TOOL_NAMES.filter((name) => name !== "powershell");
  return createTools(names, { ...options, context: factory });
}
