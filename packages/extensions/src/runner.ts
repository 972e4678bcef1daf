import type {
  AfterToolCallHook,
  AgentEvent,
  AgentTool,
  BeforeToolCallHook,
  ToolCallHookContext,
} from "@tackle/agent-core";
import { contextForCall, EXTENSION_CONTEXT_KEYS } from "./call-context.js";
import type { ExtensionContext, Logger, ToolSession } from "./context.js";
import { silentLogger } from "./defaults.js";
import type {
  Extension,
  ExtensionAPI,
  ExtensionCommand,
  ExtensionEventName,
  ExtensionHandler,
  ExtensionHandlers,
} from "./extension.js";
import { messageOf, type Registered, runToolCallChain, runToolResultChain } from "./handler-chains.js";
import { type ExtensionSource, loadExtensionSource } from "./loader.js";
import { guardKeys, StaleContextError } from "./stale-context.js";
import { buildSystemPrompt } from "./system-prompt.js";
import type { AnyToolDefinition } from "./tool-definition.js";
import {
  type ExtensionContextFactory,
  type ToolCallInfo,
  wrapToolDefinition,
} from "./wrap-tool-definition.js";

/** Options of {@link ExtensionRunner}. */
export interface ExtensionRunnerOptions {
  /** Builds the context of each call: the same factory the host would hand `wrapToolDefinition`. */
  context: ExtensionContextFactory;
  /** The host's own tools; an extension may override one by registering the same name. */
  builtinTools?: readonly AnyToolDefinition[];
  /** Relative extension paths and package names resolve from here; default `process.cwd()`. */
  cwd?: string;
  logger?: Logger;
  /** Called with every isolated error (load, handler, command), besides `runner.errors`. */
  onError?: (error: ExtensionError) => void;
}

/** An error the runner caught and isolated instead of throwing. */
export interface ExtensionError {
  /** Extension name (or the source, when loading failed before a name was known). */
  extension: string;
  phase: "load" | "tool_call" | "tool_result" | "event" | "command" | "context";
  message: string;
  error: unknown;
}

/** What {@link ExtensionRunner.load} did. */
export interface LoadResult {
  loaded: string[];
  errors: ExtensionError[];
}

/** A command as the host lists it. */
export interface CommandInfo {
  name: string;
  description: string;
  extension: string;
}

interface LoadedExtension {
  name: string;
  tools: AnyToolDefinition[];
}

/**
 * Loads extensions and exposes what they add: tools (with the conflict rule applied), commands,
 * the `tool_call`/`tool_result` chains as the loop's `beforeToolCall`/`afterToolCall`, and agent
 * event observers.
 *
 * Conflict rule for tool names: an extension may override a built-in tool (logged at info); between
 * extensions the first registration in load order wins and later ones are dropped with a warning.
 *
 * Every context, tool and `api` the runner hands out belongs to its current generation; after
 * `unload()` or `reload()` using an old one throws {@link StaleContextError}.
 *
 * @example
 * ```ts
 * const runner = new ExtensionRunner({ context: () => ctx, builtinTools: [readDefinition] });
 * const { errors } = await runner.load(["./permission-gate.ts", "@acme/tackle-audit"]);
 * const agent = new Agent({ ...model, tools: runner.tools(), beforeToolCall: runner.beforeToolCall,
 *   afterToolCall: runner.afterToolCall });
 * agent.subscribe((event) => void runner.emit(event));
 * ```
 */
export class ExtensionRunner {
  /** Every isolated error so far. */
  readonly errors: ExtensionError[] = [];
  /** Conflict and other warnings so far. */
  readonly warnings: string[] = [];

  readonly #options: ExtensionRunnerOptions;
  readonly #logger: Logger;
  #generation = 0;
  #sources: ExtensionSource[] = [];
  #extensions: LoadedExtension[] = [];
  #handlers = new Map<ExtensionEventName, Registered<(...args: never[]) => unknown>[]>();
  #commands = new Map<string, ExtensionCommand & { extension: string }>();

  constructor(options: ExtensionRunnerOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /** Names of the loaded extensions, in load order. */
  get extensions(): string[] {
    return this.#extensions.map((extension) => extension.name);
  }

  /**
   * Loads extensions in order and runs their setup. Never throws: a source that fails to load or
   * whose setup throws is skipped (its registrations discarded) and reported in the result.
   */
  async load(sources: readonly ExtensionSource[]): Promise<LoadResult> {
    const result: LoadResult = { loaded: [], errors: [] };
    for (const source of sources) {
      this.#sources.push(source);
      const label = typeof source === "string" ? source : (source.name ?? "inline extension");
      let extension: Extension;
      try {
        extension = await loadExtensionSource(source, this.#options.cwd ?? process.cwd());
      } catch (error) {
        result.errors.push(this.#report(label, "load", error));
        continue;
      }
      if (this.#extensions.some((loaded) => loaded.name === extension.name)) {
        const error = new Error(
          `An extension named ${extension.name} is already loaded; give this one another name.`,
        );
        result.errors.push(this.#report(extension.name, "load", error));
        continue;
      }
      const errorsBefore = this.errors.length;
      if (await this.#setup(extension)) result.loaded.push(extension.name);
      else result.errors.push(...this.errors.slice(errorsBefore));
    }
    return result;
  }

  /** Drops every extension, handler, tool and command; contexts and tools handed out so far go stale. */
  unload(): void {
    this.#generation += 1;
    this.#extensions = [];
    this.#handlers = new Map();
    this.#commands = new Map();
    this.#sources = [];
  }

  /** Unloads, then loads the same sources again (files are read afresh). */
  async reload(): Promise<LoadResult> {
    const sources = this.#sources;
    this.unload();
    return this.load(sources);
  }

  /** The active tool definitions: built-ins, overridden by extensions, then extension tools in load order. */
  toolDefinitions(): AnyToolDefinition[] {
    const byName = new Map<string, AnyToolDefinition>();
    for (const tool of this.#options.builtinTools ?? []) byName.set(tool.name, tool);
    for (const extension of this.#extensions) for (const tool of extension.tools) byName.set(tool.name, tool);
    return [...byName.values()];
  }

  /**
   * The active tools, wrapped so each call gets a fresh context. They belong to this generation:
   * after a reload, call `tools()` again (an old tool fails its calls with `stale_context`).
   */
  tools(): AgentTool[] {
    const generation = this.#generation;
    const factory = (call: ToolCallInfo) => {
      if (generation !== this.#generation)
        throw new StaleContextError(`tool ${call.toolName} from before a reload`);
      return this.#session(call);
    };
    return this.toolDefinitions().map((definition) => wrapToolDefinition(definition, factory) as AgentTool);
  }

  /** The system prompt for the active tools (see `buildSystemPrompt`). */
  systemPrompt(base?: string, guidelines?: readonly string[]): string {
    return buildSystemPrompt({
      tools: this.toolDefinitions(),
      ...(base === undefined ? {} : { base }),
      ...(guidelines === undefined ? {} : { guidelines }),
    });
  }

  /**
   * The context of `call` in this generation, as handlers get it: reading it throws
   * {@link StaleContextError} once the runner unloads or reloads.
   */
  async context(call: ToolCallInfo): Promise<ExtensionContext> {
    const generation = this.#generation;
    const session = await this.#options.context(call);
    if (generation !== this.#generation) throw new StaleContextError("a context requested before a reload");
    // Handlers see the call's context; the call's record opens with the tool, not here.
    const context = contextForCall(session, { ...call, opensRecord: false });
    return guardKeys(
      context,
      EXTENSION_CONTEXT_KEYS,
      () => generation === this.#generation,
      "an extension context",
    );
  }

  /**
   * The session of `call` in this generation, for the runner's tools: the call's context is made
   * from it at once, so checking the generation here is enough.
   */
  async #session(call: ToolCallInfo): Promise<ToolSession> {
    const generation = this.#generation;
    const session = await this.#options.context(call);
    if (generation !== this.#generation) throw new StaleContextError("a context requested before a reload");
    return session;
  }

  /** The `tool_call` chain, as the loop's `beforeToolCall`. */
  readonly beforeToolCall: BeforeToolCallHook = async (hook, signal) => {
    const handlers = this.#handlersOf("tool_call");
    if (handlers.length === 0) return undefined;
    const ctx = await this.#contextForHook(hook, signal);
    if (ctx === undefined) {
      return { block: true, reason: "Blocked: the extension context could not be built. Tell the user." };
    }
    const event = {
      type: "tool_call" as const,
      toolCallId: hook.toolCall.id,
      toolName: hook.tool.name,
      input: hook.args,
    };
    return runToolCallChain(handlers, event, ctx, (name, error) => this.#report(name, "tool_call", error));
  };

  /** The `tool_result` chain, as the loop's `afterToolCall`. */
  readonly afterToolCall: AfterToolCallHook = async (hook, signal) => {
    const handlers = this.#handlersOf("tool_result");
    if (handlers.length === 0) return undefined;
    const ctx = await this.#contextForHook(hook, signal);
    if (ctx === undefined) return undefined;
    const event = {
      type: "tool_result" as const,
      toolCallId: hook.toolCall.id,
      toolName: hook.tool.name,
      input: hook.args,
      content: hook.result.content,
      details: hook.result.details,
      isError: hook.result.isError,
      ...(hook.result.errorCode !== undefined ? { errorCode: hook.result.errorCode } : {}),
    };
    return runToolResultChain(handlers, event, ctx, (name, error) =>
      this.#report(name, "tool_result", error),
    );
  };

  /** Tells agent-event observers about `event`, in load order. A throwing observer is reported and skipped. */
  async emit(event: AgentEvent): Promise<void> {
    for (const { extension, handler } of this.#handlersOf(event.type)) {
      try {
        await (handler as (event: AgentEvent) => unknown)(event);
      } catch (error) {
        this.#report(extension, "event", error);
      }
    }
  }

  /** The registered commands. */
  commands(): CommandInfo[] {
    return [...this.#commands].map(([name, command]) => ({
      name,
      description: command.description,
      extension: command.extension,
    }));
  }

  /** Runs a command. Never throws: an unknown command or a failing one comes back as `{ ok: false }`. */
  async runCommand(name: string, args = ""): Promise<{ ok: true } | { ok: false; error: string }> {
    const command = this.#commands.get(name);
    if (command === undefined) {
      const known = [...this.#commands.keys()].join(", ") || "none";
      return { ok: false, error: `Unknown command ${name}. Commands: ${known}.` };
    }
    try {
      const ctx = await this.context({ toolCallId: `command:${name}`, toolName: name, signal: undefined });
      await command.run(args, ctx);
      return { ok: true };
    } catch (error) {
      return { ok: false, error: this.#report(command.extension, "command", error).message };
    }
  }

  async #setup(extension: Extension): Promise<boolean> {
    const generation = this.#generation;
    const record: LoadedExtension = { name: extension.name, tools: [] };
    const staged: { event: ExtensionEventName; handler: (...args: never[]) => unknown }[] = [];
    const commands = new Map<string, ExtensionCommand>();
    let committed = false;
    const live = () => {
      if (generation !== this.#generation)
        throw new StaleContextError(`the api of extension ${extension.name}`);
    };
    const logger = prefixed(this.#logger, extension.name);
    const api: ExtensionAPI = {
      name: extension.name,
      logger,
      registerTool: (definition) => {
        live();
        if (this.#acceptTool(extension.name, record, definition)) record.tools.push(definition);
      },
      registerCommand: (name, command) => {
        live();
        if (committed) this.#addCommand(extension.name, name, command);
        else commands.set(name, command);
      },
      on: <E extends ExtensionEventName>(event: E, handler: ExtensionHandler<E>) => {
        live();
        const entry = { event, handler: handler as (...args: never[]) => unknown };
        if (committed) this.#addHandler(extension.name, entry.event, entry.handler);
        else staged.push(entry);
      },
    };
    try {
      await extension.setup(api);
    } catch (error) {
      this.#report(extension.name, "load", error);
      return false;
    }
    if (generation !== this.#generation) return false;
    committed = true;
    this.#extensions.push(record);
    for (const { event, handler } of staged) this.#addHandler(extension.name, event, handler);
    for (const [name, command] of commands) this.#addCommand(extension.name, name, command);
    return true;
  }

  /** The conflict rule, applied at registration time so the warning names both sides. */
  #acceptTool(extension: string, record: LoadedExtension, definition: AnyToolDefinition): boolean {
    const owner = [...this.#extensions, record].find((loaded) =>
      loaded.tools.some((t) => t.name === definition.name),
    );
    if (owner !== undefined) {
      const warning = `Tool ${definition.name} from extension ${extension} ignored: extension ${owner.name} registered it first.`;
      this.warnings.push(warning);
      this.#logger.warn(warning);
      return false;
    }
    if ((this.#options.builtinTools ?? []).some((tool) => tool.name === definition.name)) {
      this.#logger.info(`Extension ${extension} overrides built-in tool ${definition.name}.`);
    }
    return true;
  }

  #addHandler(extension: string, event: ExtensionEventName, handler: (...args: never[]) => unknown): void {
    const list = this.#handlers.get(event) ?? [];
    list.push({ extension, handler });
    this.#handlers.set(event, list);
  }

  #addCommand(extension: string, name: string, command: ExtensionCommand): void {
    const existing = this.#commands.get(name);
    if (existing !== undefined) {
      const warning = `Command ${name} from extension ${extension} ignored: extension ${existing.extension} registered it first.`;
      this.warnings.push(warning);
      this.#logger.warn(warning);
      return;
    }
    this.#commands.set(name, { ...command, run: command.run.bind(command), extension });
  }

  #handlersOf<E extends keyof ExtensionHandlers>(event: E): Registered<ExtensionHandlers[E]>[];
  #handlersOf(event: ExtensionEventName): Registered<(...args: never[]) => unknown>[];
  #handlersOf(event: ExtensionEventName): Registered<(...args: never[]) => unknown>[] {
    // A copy: a handler that registers another must not change the chain that is running.
    return [...(this.#handlers.get(event) ?? [])];
  }

  async #contextForHook(hook: ToolCallHookContext, signal: AbortSignal | undefined) {
    try {
      // Handlers get the run's signal in ctx.signal, as the tool itself does.
      return await this.context({ toolCallId: hook.toolCall.id, toolName: hook.tool.name, signal });
    } catch (error) {
      this.#report("runner", "context", error);
      return undefined;
    }
  }

  #report(extension: string, phase: ExtensionError["phase"], error: unknown): ExtensionError {
    const entry: ExtensionError = {
      extension,
      phase,
      message: `${extension} (${phase}): ${messageOf(error)}`,
      error,
    };
    this.errors.push(entry);
    this.#logger.error(entry.message);
    try {
      this.#options.onError?.(entry);
    } catch {
      // The host's error listener failing must not turn an isolated error into a crash.
    }
    return entry;
  }
}

function prefixed(logger: Logger, name: string): Logger {
  return {
    debug: (message, data) => logger.debug(`[${name}] ${message}`, data),
    info: (message, data) => logger.info(`[${name}] ${message}`, data),
    warn: (message, data) => logger.warn(`[${name}] ${message}`, data),
    error: (message, data) => logger.error(`[${name}] ${message}`, data),
  };
}
