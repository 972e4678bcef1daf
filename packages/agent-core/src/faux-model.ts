import { setImmediate as nextTick, setTimeout as sleep } from "node:timers/promises";
import type { AssistantMessage, StopReason, TextContent, ThinkingContent, ToolCall } from "./messages.js";
import type { AssistantMessageEvent, Model, ModelContext, StreamFn } from "./model.js";

/** A tool call in a script. `arguments` is sent as given, malformed shapes included (a JSON string, `"5"` for 5). */
export interface FauxToolCall {
  type: "toolCall";
  /** Defaults to `faux_call_<n>`. */
  id?: string;
  name: string;
  arguments: unknown;
}

/** One content block of a scripted reply. */
export type FauxBlock = TextContent | ThinkingContent | FauxToolCall;

/** A scripted assistant reply. A string is one text block. */
export interface FauxReplyMessage {
  content: string | FauxBlock[];
  /** Defaults to `toolUse` when the reply has tool calls, else `stop`. */
  stopReason?: StopReason;
  /** For `stopReason: "error"`: the message the stream reports. */
  errorMessage?: string;
}

/** One entry of the script: text, a reply, or a function of what the model was sent. */
export type FauxReply =
  | string
  | FauxReplyMessage
  | ((context: ModelContext, index: number) => FauxReply | Promise<FauxReply>);

/** Options of {@link createFauxModel}. */
export interface FauxModelOptions {
  /** Model id; default `faux`. */
  id?: string;
  /** Characters per delta event; default 16. */
  chunkSize?: number;
  /** Keep copies of what the model was sent in `contexts` (default true; copying grows with the conversation). */
  recordContexts?: boolean;
  /** Milliseconds before each delta (a slow model, to abort mid-stream); default 0 (one event-loop turn). */
  delayMs?: number;
  /**
   * Deltas streamed per event-loop turn (or per `delayMs`); default 1, a pause before each delta
   * like a slow network. A larger number is a fast network that delivers many deltas per read;
   * `Infinity` streams each reply in one turn (the loop benchmark uses it, so it measures the loop
   * rather than one event-loop turn per delta).
   */
  deltasPerTurn?: number;
}

/** A scripted model: hand `model` and `streamFn` to the loop. */
export interface FauxModel {
  model: Model;
  streamFn: StreamFn;
  /** What the model was sent on each call (copies of the message lists). */
  readonly contexts: ModelContext[];
  /** Replies not yet used. */
  readonly remaining: number;
  /** Appends replies to the script. */
  push(...replies: FauxReply[]): void;
}

/** A text block for a script. */
export function fauxText(text: string): TextContent {
  return { type: "text", text };
}

/** A thinking block for a script. */
export function fauxThinking(thinking: string): ThinkingContent {
  return { type: "thinking", thinking };
}

/** A tool call for a script. */
export function fauxToolCall(name: string, args: unknown, id?: string): FauxToolCall {
  return id === undefined
    ? { type: "toolCall", name, arguments: args }
    : { type: "toolCall", id, name, arguments: args };
}

/**
 * A model that streams scripted replies with real delta events, for tests and demos. Each call
 * of `streamFn` takes the next script entry. It honours the abort signal between deltas and
 * reports a clear error (inside the stream, like a real provider) when the script runs out.
 *
 * @example
 * ```ts
 * const faux = createFauxModel([
 *   { content: [fauxToolCall("ls", { path: "." })] },
 *   (context) => `I saw ${context.messages.length} messages.`,
 * ]);
 * const stream = agentLoop([userMessage("look around")], { messages: [], tools: [ls] }, faux, signal);
 * ```
 */
export function createFauxModel(script: FauxReply[], options: FauxModelOptions = {}): FauxModel {
  const replies = [...script];
  const contexts: ModelContext[] = [];
  const model: Model = { id: options.id ?? "faux", provider: "faux" };
  const settings: StreamSettings = {
    chunkSize: Math.max(1, options.chunkSize ?? 16),
    delayMs: options.delayMs ?? 0,
    deltasPerTurn: options.deltasPerTurn ?? 1,
  };
  if (!(settings.deltasPerTurn >= 1)) {
    throw new RangeError(
      `deltasPerTurn must be 1 or more (Infinity for whole replies); got ${options.deltasPerTurn}.`,
    );
  }
  let next = 0;
  let callIds = 0;
  const streamFn: StreamFn = (_model, context, { signal }) => {
    const index = next++;
    if (options.recordContexts !== false) {
      contexts.push({ ...context, messages: [...context.messages], tools: [...context.tools] });
    }
    const newId = () => `faux_call_${++callIds}`;
    return streamReply(model.id, () => resolveReply(replies, index, context), settings, newId, signal);
  };
  return {
    model,
    streamFn,
    contexts,
    get remaining() {
      return Math.max(0, replies.length - next);
    },
    push(...more) {
      replies.push(...more);
    },
  };
}

async function resolveReply(
  replies: FauxReply[],
  index: number,
  context: ModelContext,
): Promise<FauxReplyMessage> {
  let reply = replies[index];
  if (reply === undefined) {
    throw new Error(
      `Faux model script ran out: reply ${index + 1} was requested but the script has ${replies.length}. Add more replies to the script.`,
    );
  }
  while (typeof reply === "function") reply = await reply(context, index);
  return typeof reply === "string" ? { content: reply } : reply;
}

interface StreamSettings {
  chunkSize: number;
  delayMs: number;
  deltasPerTurn: number;
}

/** A step of a reply's events: the faux model waits (a turn, or its delay) before the next. */
const PAUSE: unique symbol = Symbol("pause");
type ReplyStep = AssistantMessageEvent | typeof PAUSE;

/**
 * One reply's events. The events come from a synchronous generator and are handed out as
 * resolved promises, waiting only where the settings pause: an async generator costs several
 * promise turns per yield, which a reply of 1000 tool calls (3000 events and more) paid in full,
 * making the faux model, not the loop under test, a large part of a loop benchmark.
 */
function streamReply(
  modelId: string,
  getReply: () => Promise<FauxReplyMessage>,
  settings: StreamSettings,
  newId: () => string,
  signal: AbortSignal | undefined,
): AsyncIterableIterator<AssistantMessageEvent> {
  const partial: AssistantMessage = {
    role: "assistant",
    content: [],
    stopReason: "stop",
    model: modelId,
    timestamp: Date.now(),
  };
  // Started by the first read, as a generator's body would be.
  const start = () =>
    getReply().then(
      (reply) => replySteps(partial, reply, settings, newId, signal),
      (error: unknown) =>
        failedSteps(partial, "error", error instanceof Error ? error.message : String(error)),
    );
  return new ReplyStream(start, settings, signal);
}

/** Hands out the steps of a reply as an async iterator (see {@link streamReply}). */
class ReplyStream implements AsyncIterableIterator<AssistantMessageEvent> {
  #steps: Generator<ReplyStep> | undefined;
  #starting: Promise<Generator<ReplyStep>> | undefined;
  #ended = false;
  readonly #start: () => Promise<Generator<ReplyStep>>;
  readonly #settings: StreamSettings;
  readonly #signal: AbortSignal | undefined;

  constructor(
    start: () => Promise<Generator<ReplyStep>>,
    settings: StreamSettings,
    signal: AbortSignal | undefined,
  ) {
    this.#start = start;
    this.#settings = settings;
    this.#signal = signal;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<AssistantMessageEvent> {
    return this;
  }

  next(): Promise<IteratorResult<AssistantMessageEvent>> {
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    const steps = this.#steps;
    if (steps === undefined) {
      this.#starting ??= this.#start();
      return this.#starting.then((started) => {
        this.#steps = started;
        return this.next();
      });
    }
    const step = steps.next();
    if (step.done === true) {
      this.#ended = true;
      return Promise.resolve({ done: true, value: undefined });
    }
    if (step.value === PAUSE) return this.#pause().then(() => this.next());
    // The generator's own result object, fresh for every step, is the iterator result.
    return Promise.resolve(step as IteratorYieldResult<AssistantMessageEvent>);
  }

  return(): Promise<IteratorResult<AssistantMessageEvent>> {
    this.#ended = true;
    this.#steps?.return(undefined);
    return Promise.resolve({ done: true, value: undefined });
  }

  async #pause(): Promise<void> {
    if (this.#settings.delayMs > 0) {
      await sleep(this.#settings.delayMs, undefined, { signal: this.#signal }).catch(() => {});
    } else {
      await nextTick();
    }
  }
}

/** The reply's message as an error (or abort) event. */
function failEvent(
  partial: AssistantMessage,
  stopReason: "error" | "aborted",
  errorMessage: string,
): AssistantMessageEvent {
  partial.stopReason = stopReason;
  partial.errorMessage = errorMessage;
  return { type: "error", message: partial };
}

function* failedSteps(
  partial: AssistantMessage,
  stopReason: "error" | "aborted",
  errorMessage: string,
): Generator<ReplyStep> {
  yield failEvent(partial, stopReason, errorMessage);
}

function* replySteps(
  partial: AssistantMessage,
  reply: FauxReplyMessage,
  settings: StreamSettings,
  newId: () => string,
  signal: AbortSignal | undefined,
): Generator<ReplyStep> {
  const blocks: FauxBlock[] = typeof reply.content === "string" ? [fauxText(reply.content)] : reply.content;
  yield { type: "start", partial };
  let deltas = 0;
  /** Whether the next delta starts a new group of `deltasPerTurn`, and so waits a turn (or the delay). */
  const pauses = () => deltas++ % settings.deltasPerTurn === 0;
  for (const block of blocks) {
    if (signal?.aborted) break;
    const contentIndex = partial.content.length;
    if (block.type === "toolCall") {
      const call: ToolCall = { type: "toolCall", id: block.id ?? newId(), name: block.name, arguments: {} };
      partial.content.push(call);
      yield { type: "toolcall_start", contentIndex, partial };
      const json =
        typeof block.arguments === "string" ? block.arguments : JSON.stringify(block.arguments ?? {});
      for (let start = 0; start < json.length; start += settings.chunkSize) {
        if (pauses()) yield PAUSE;
        if (signal?.aborted) break;
        const delta = json.slice(start, start + settings.chunkSize);
        yield { type: "toolcall_delta", contentIndex, delta, partial };
      }
      if (signal?.aborted) break;
      // Delivered exactly as scripted, so tests can send the malformed shapes real models send.
      call.arguments = block.arguments as Record<string, unknown>;
      yield { type: "toolcall_end", contentIndex, toolCall: call, partial };
      continue;
    }
    const isText = block.type === "text";
    const full = isText ? block.text : block.thinking;
    const item: TextContent | ThinkingContent = isText
      ? { type: "text", text: "" }
      : { type: "thinking", thinking: "" };
    partial.content.push(item);
    yield isText
      ? { type: "text_start", contentIndex, partial }
      : { type: "thinking_start", contentIndex, partial };
    for (let start = 0; start < full.length; start += settings.chunkSize) {
      if (pauses()) yield PAUSE;
      if (signal?.aborted) break;
      const delta = full.slice(start, start + settings.chunkSize);
      if (item.type === "text") item.text += delta;
      else item.thinking += delta;
      yield isText
        ? { type: "text_delta", contentIndex, delta, partial }
        : { type: "thinking_delta", contentIndex, delta, partial };
    }
    if (signal?.aborted) break;
    yield item.type === "text"
      ? { type: "text_end", contentIndex, content: item, partial }
      : { type: "thinking_end", contentIndex, content: item, partial };
  }
  if (signal?.aborted) {
    yield failEvent(partial, "aborted", "Request was aborted.");
    return;
  }
  if (reply.stopReason === "error" || reply.stopReason === "aborted") {
    yield failEvent(partial, reply.stopReason, reply.errorMessage ?? `Scripted ${reply.stopReason}.`);
    return;
  }
  partial.stopReason = reply.stopReason ?? (blocks.some((b) => b.type === "toolCall") ? "toolUse" : "stop");
  yield { type: "done", message: partial };
}
