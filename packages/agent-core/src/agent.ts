import type { ToolCallAuditOptions } from "./audit/call-audit.js";
import type { AgentEvent } from "./events.js";
import type { AfterToolCallHook, BeforeToolCallHook } from "./hooks.js";
import { agentLoop } from "./loop.js";
import { type AssistantMessage, type Message, userMessage } from "./messages.js";
import type { Model, StreamFn } from "./model.js";
import type { AnyAgentTool } from "./tool.js";

/** Options of {@link Agent}. */
export interface AgentOptions {
  model: Model;
  streamFn: StreamFn;
  systemPrompt?: string;
  tools?: AnyAgentTool[];
  /** Earlier conversation to continue from. */
  messages?: Message[];
  toolExecution?: "parallel" | "sequential";
  beforeToolCall?: BeforeToolCallHook;
  afterToolCall?: AfterToolCallHook;
  /** After `abort()`, how long to wait for a tool that has not stopped (see `AgentLoopConfig.abortGraceMs`). */
  abortGraceMs?: number;
  /** Audit trail of the agent's tool calls (see `AgentLoopConfig.audit`). */
  audit?: ToolCallAuditOptions;
}

/** What an {@link Agent} holds; read it through `agent.state`. */
export interface AgentState {
  model: Model;
  systemPrompt: string | undefined;
  tools: AnyAgentTool[];
  /** The whole conversation, updated as each message ends. */
  messages: Message[];
  isRunning: boolean;
  /** The assistant message being streamed, while it streams. */
  streamingMessage: AssistantMessage | undefined;
  /** Ids of tool calls that started and have not ended. */
  pendingToolCalls: ReadonlySet<string>;
  /** Why the last run failed (model error, or a bug surfaced by the loop). */
  error: string | undefined;
}

/** Listener of {@link Agent.subscribe}. */
export type AgentListener = (event: AgentEvent) => void;

type Input = string | Message | Message[];

/**
 * A stateful agent around {@link agentLoop}: holds the conversation, runs one prompt at a time,
 * queues steering and follow-up messages, and tells subscribers every event.
 *
 * @example
 * ```ts
 * const agent = new Agent({ ...createFauxModel(["Hi!"]), tools: [] });
 * agent.subscribe((event) => console.log(event.type));
 * await agent.prompt("hello");
 * ```
 */
export class Agent {
  readonly #options: AgentOptions;
  readonly #state: AgentState;
  readonly #pending = new Set<string>();
  readonly #listeners = new Set<AgentListener>();
  readonly #steering: Message[] = [];
  readonly #followUps: Message[] = [];
  #controller: AbortController | undefined;
  #running: Promise<void> | undefined;

  constructor(options: AgentOptions) {
    this.#options = options;
    this.#state = {
      model: options.model,
      systemPrompt: options.systemPrompt,
      tools: [...(options.tools ?? [])],
      messages: [...(options.messages ?? [])],
      isRunning: false,
      streamingMessage: undefined,
      pendingToolCalls: this.#pending,
      error: undefined,
    };
  }

  /** The live state (read it; change it through the methods). */
  get state(): Readonly<AgentState> {
    return this.#state;
  }

  /** Replaces the tools for the next turn. */
  setTools(tools: AnyAgentTool[]): void {
    this.#state.tools = [...tools];
  }

  /** Replaces the system prompt for the next turn. */
  setSystemPrompt(systemPrompt: string | undefined): void {
    this.#state.systemPrompt = systemPrompt;
  }

  /** Calls `listener` with every event; returns the function that unsubscribes. A throwing listener is ignored. */
  subscribe(listener: AgentListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Starts a run with new input. Throws when a run is already going: use `steer`/`followUp` or `waitForIdle`. */
  prompt(input: Input): Promise<void> {
    return this.#start(toMessages(input));
  }

  /** Starts a run from the current conversation (e.g. after an error or abort). */
  continue(): Promise<void> {
    const last = this.#state.messages.at(-1);
    if (last === undefined || last.role === "assistant") {
      throw new Error("Nothing to continue: the conversation must end with a user or tool result message.");
    }
    return this.#start([]);
  }

  /** Queues a message delivered at the next turn boundary of the running run (or of the next run). */
  steer(input: string | Message): void {
    this.#steering.push(...toMessages(input));
  }

  /** Queues a message delivered when the run would otherwise end. */
  followUp(input: string | Message): void {
    this.#followUps.push(...toMessages(input));
  }

  /**
   * Aborts the running run: the model stream, hooks and every running tool see the signal. The
   * run ends once each running tool has stopped, or `abortGraceMs` after the abort for a tool
   * that ignores the signal.
   */
  abort(): void {
    this.#controller?.abort();
  }

  /** Resolves when no run is going. */
  async waitForIdle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  #start(prompts: Message[]): Promise<void> {
    if (this.#running !== undefined) {
      throw new Error("Agent is already running. Use steer() or followUp(), or await waitForIdle() first.");
    }
    const controller = new AbortController();
    this.#controller = controller;
    this.#state.isRunning = true;
    this.#state.error = undefined;
    const running = this.#run(prompts, controller.signal).finally(() => {
      this.#running = undefined;
      this.#controller = undefined;
      this.#state.isRunning = false;
      this.#state.streamingMessage = undefined;
      this.#pending.clear();
    });
    this.#running = running;
    return running;
  }

  async #run(prompts: Message[], signal: AbortSignal): Promise<void> {
    const options = this.#options;
    const stream = agentLoop(
      prompts,
      { systemPrompt: this.#state.systemPrompt, messages: this.#state.messages, tools: this.#state.tools },
      {
        model: this.#state.model,
        streamFn: options.streamFn,
        ...(options.toolExecution === undefined ? {} : { toolExecution: options.toolExecution }),
        ...(options.beforeToolCall === undefined ? {} : { beforeToolCall: options.beforeToolCall }),
        ...(options.afterToolCall === undefined ? {} : { afterToolCall: options.afterToolCall }),
        ...(options.abortGraceMs === undefined ? {} : { abortGraceMs: options.abortGraceMs }),
        ...(options.audit === undefined ? {} : { audit: options.audit }),
        getSteeringMessages: () => this.#steering.splice(0),
        getFollowUpMessages: () => this.#followUps.splice(0),
      },
      signal,
    );
    for await (const event of stream) {
      this.#apply(event);
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch {
          // A broken UI listener must not stop the agent.
        }
      }
    }
    try {
      await stream.result();
    } catch (error) {
      this.#state.error = error instanceof Error ? error.message : String(error);
    }
  }

  #apply(event: AgentEvent): void {
    const state = this.#state;
    switch (event.type) {
      case "message_start":
      case "message_update":
        if (event.message.role === "assistant") state.streamingMessage = event.message;
        break;
      case "message_end":
        state.messages.push(event.message);
        if (event.message.role === "assistant") {
          state.streamingMessage = undefined;
          if (event.message.stopReason === "error") state.error = event.message.errorMessage;
        }
        break;
      case "tool_execution_start":
        this.#pending.add(event.toolCallId);
        break;
      case "tool_execution_end":
        this.#pending.delete(event.toolCallId);
        break;
      default:
        break;
    }
  }
}

function toMessages(input: Input): Message[] {
  if (typeof input === "string") return [userMessage(input)];
  return Array.isArray(input) ? input : [input];
}
