/**
 * Factories: one tool by name, or the usual sets, as `ToolDefinition`s (context injected by the
 * host) or as ready `AgentTool`s bound to a context. Every factory that makes `AgentTool`s needs
 * the context: tools share what read recorded only when they share a context, so sharing is
 * never left to chance (two tools made without one would each check their own ledger).
 */
import type { AgentTool } from "@tackle/agent-core";
import type { AnyToolDefinition, ToolDefinition, ToolSession } from "@tackle/extensions";
import { type ExtensionContextFactory, wrapToolDefinition } from "@tackle/extensions";
import { checkOptions, type OptionSpec } from "./tool-options.js";
import {
  ALL_TOOL_NAMES,
  isToolName,
  TOOLS,
  type ToolDefinitionByName,
  type ToolName,
  type ToolOptionsByName,
} from "./tool-registry.js";
import { detectPowershell } from "./tools/powershell.js";

export type { ToolDefinitionByName, ToolName, ToolOptionsByName } from "./tool-registry.js";
export { ALL_TOOL_NAMES } from "./tool-registry.js";

/** The tools that run commands. A set holding one also holds `jobs`, which their results point to. */
export type ShellToolName = "bash" | "powershell";

/** read, bash, edit, write (and jobs, for bash's background jobs): what a coding agent needs. */
export const CODING_TOOL_NAMES = ["read", "bash", "edit", "write"] as const satisfies readonly ToolName[];
/** read, grep, find, ls: look, never touch. */
export const READ_ONLY_TOOL_NAMES = ["read", "grep", "find", "ls"] as const satisfies readonly ToolName[];

/** Per-tool options for the set factories. */
export type PerToolOptions = { [N in ToolName]?: ToolOptionsByName[N] };

/** The bound tool `createTool(name)` returns: typed with that tool's parameters and details. */
export type ToolByName = {
  [N in ToolName]: ToolDefinitionByName[N] extends ToolDefinition<infer P, infer D, infer C>
    ? AgentTool<P, D, C>
    : never;
};

/** `N` plus `jobs` when `N` holds a shell tool. */
export type WithJobs<N extends ToolName> = N | ([Extract<N, ShellToolName>] extends [never] ? never : "jobs");

/** A set of bound tools keyed by name: `N` plus `jobs` when `N` holds a shell tool. */
export type ToolSet<N extends ToolName = ToolName> = { [K in WithJobs<N>]: ToolByName[K] };

/**
 * Creates the definition of one tool. It takes its environment from the context handed to
 * `execute` (5th argument), so one definition serves any number of environments.
 */
export function createToolDefinition<N extends ToolName>(
  name: N,
  options?: ToolOptionsByName[N],
): ToolDefinitionByName[N];
export function createToolDefinition(name: ToolName, options?: Record<string, unknown>) {
  if (!isToolName(name)) {
    throw new TypeError(`Unknown tool name: ${String(name)}. Tool names: ${ALL_TOOL_NAMES.join(", ")}.`);
  }
  const create = TOOLS[name].create as (options?: Record<string, unknown>) => AnyToolDefinition;
  return create(options);
}

/** `tools` of the set factories: options per tool name, each an object. */
const TOOL_OPTIONS_SPEC: OptionSpec = Object.fromEntries(ALL_TOOL_NAMES.map((name) => [name, "object"]));

/** Options of the set factories. */
export interface ToolSetOptions {
  /**
   * The context every call runs with, or a factory asked at each call (to swap environments).
   * Tools share read records, artifacts and jobs only through a shared context; make it with
   * `createToolContext` (or `createLocalToolContext` from `@tackle/tools/local`) and end it with
   * its `dispose()`.
   */
  context: ToolSession | ExtensionContextFactory;
  /** Options per tool, by name. */
  tools?: PerToolOptions;
}

/** Options of {@link createTools}. */
export interface CreateToolsOptions<N extends ToolName> extends ToolSetOptions {
  /** The tools to make. A shell tool brings `jobs` along (its results tell the model to use it). */
  names: readonly N[];
}

/** Options of {@link createTool}. */
export interface CreateToolOptions<N extends ToolName> {
  /** See {@link ToolSetOptions.context}. */
  context: ToolSession | ExtensionContextFactory;
  options?: ToolOptionsByName[N];
  /**
   * The other tools the model is given with this one (made one by one, or by another library).
   * Its hints then name only these and itself, as in a set from {@link createTools}. Without it
   * the set is not known and a hint may name any tool.
   *
   * @example
   * ```ts
   * const edit = createTool("edit", { context, set: ["read", "write"] }); // never says "use bash"
   * ```
   */
  set?: readonly ToolName[];
}

function contextFactoryOf(context: ToolSession | ExtensionContextFactory): ExtensionContextFactory {
  if (typeof context === "function") return context;
  if (context === null || typeof context !== "object") {
    throw new TypeError(
      "The tools need a context: pass { context: createToolContext({ cwd, operations }) } (or createLocalToolContext() from @tackle/tools/local).",
    );
  }
  return () => context;
}

/** The names with `jobs` added (once, at the end) when a shell tool is among them. */
export function withJobs<N extends ToolName>(names: readonly N[]): WithJobs<N>[] {
  const out = [...new Set(names)] as WithJobs<N>[];
  const hasShell = out.some((name) => name === "bash" || name === "powershell");
  if (hasShell && !out.includes("jobs" as WithJobs<N>)) out.push("jobs" as WithJobs<N>);
  return out;
}

/**
 * Creates the named tools on one context, keyed by name and typed per tool. A shell tool brings
 * `jobs` along. Hand them to the loop with `Object.values(tools)`. Their hints name only tools of
 * this set ("Use ls to list it" only where ls was made).
 *
 * @example
 * ```ts
 * const context = createToolContext({ cwd: "/srv/app", operations: createSshOperations(options) });
 * const { read, edit } = createTools({ context, names: ["read", "edit"] });
 * const outcome = await invokeTool(read, { path: "package.json" });
 * await context.dispose();
 * ```
 */
export function createTools<const N extends ToolName>(options: CreateToolsOptions<N>): ToolSet<N> {
  const factory = contextFactoryOf(options.context);
  // Options under a misspelt name would be ignored without a word.
  checkOptions("createTools: tools", options.tools, TOOL_OPTIONS_SPEC);
  const names = withJobs(options.names);
  const tools: Record<string, AgentTool> = {};
  for (const name of names) {
    const definition: AnyToolDefinition = createToolDefinition(name, options.tools?.[name] as never);
    // Each call sees the set's names, so its hints name only tools the model has (`hasTool`).
    tools[name] = wrapToolDefinition(definition, factory, { toolNames: names });
  }
  return tools as ToolSet<N>;
}

/**
 * Creates one tool bound to a context, typed with its parameters and details. Its set is not known
 * (tools made one by one may be used together) unless `set` names it; without it, its hints may
 * name any tool.
 *
 * @example
 * ```ts
 * const read = createTool("read", { context });
 * const outcome = await invokeTool(read, { path: "a.ts" }); // outcome.details: ReadDetails on success
 * ```
 */
export function createTool<N extends ToolName>(name: N, options: CreateToolOptions<N>): ToolByName[N] {
  const definition: AnyToolDefinition = createToolDefinition(name, options.options as never);
  const factory = contextFactoryOf(options.context);
  if (options.set === undefined) return wrapToolDefinition(definition, factory) as ToolByName[N];
  for (const other of options.set) {
    if (!isToolName(other))
      throw new TypeError(
        `createTool: set: unknown tool name ${JSON.stringify(other)}. Tool names: ${ALL_TOOL_NAMES.join(", ")}.`,
      );
  }
  const names = [...new Set<ToolName>([name, ...options.set])];
  return wrapToolDefinition(definition, factory, { toolNames: names }) as ToolByName[N];
}

/** read, bash, edit, write and jobs, sharing one context. */
export function createCodingTools(options: ToolSetOptions): ToolSet<(typeof CODING_TOOL_NAMES)[number]> {
  return createTools({ ...options, names: CODING_TOOL_NAMES });
}

/** read, grep, find, ls, sharing one context. */
export function createReadOnlyTools(options: ToolSetOptions): ToolSet<(typeof READ_ONLY_TOOL_NAMES)[number]> {
  return createTools({ ...options, names: READ_ONLY_TOOL_NAMES });
}

/**
 * All nine tools, sharing one context. powershell is included whatever the environment; where
 * pwsh is missing its calls fail with `not_supported` and say to use bash. Use
 * {@link createAvailableTools} to leave it out where it cannot run.
 */
export function createAllTools(options: ToolSetOptions): ToolSet {
  return createTools({ ...options, names: ALL_TOOL_NAMES });
}

/** What {@link createAvailableTools} returns: every tool, powershell only where pwsh runs. */
export type AvailableToolSet = Omit<ToolSet, "powershell"> & Partial<Pick<ToolSet, "powershell">>;

/**
 * All tools minus powershell when the environment has no pwsh (asked through its `exec`, cached
 * per environment object). A context factory is asked once, for the probe.
 */
export async function createAvailableTools(options: ToolSetOptions): Promise<AvailableToolSet> {
  const factory = contextFactoryOf(options.context);
  const ctx = await factory({ toolCallId: "probe", toolName: "powershell", signal: undefined });
  const pwsh = await detectPowershell(ctx.operations, { cwd: ctx.cwd });
  const names = ALL_TOOL_NAMES.filter((name) => pwsh.available || name !== "powershell");
  return createTools({ ...options, context: factory, names });
}
