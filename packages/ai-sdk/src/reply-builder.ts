import type {
  AssistantMessage,
  AssistantMessageEvent,
  ProviderMetadata,
  TextContent,
  ThinkingContent,
  ToolCall,
} from "@tackle/agent-core";
import { toStopReason } from "./finish-reason.js";
import type { PartUsage, StreamPart } from "./normalize-part.js";
import { describeProviderError } from "./provider-error.js";
import { toUsage } from "./usage.js";

/** The text of an aborted reply, as the loop words it. */
export const ABORTED_MESSAGE = "Request was aborted.";

type Block = TextContent | ThinkingContent | ToolCall;

interface OpenBlock {
  index: number;
  /** Tool calls: the argument text as streamed, for a call whose final `tool-call` never came. */
  inputText?: string;
}

/**
 * Builds one assistant message from a provider's stream parts (`doStream`) and says what changed
 * as our stream events. One message object is mutated in place and handed out as `partial`, like
 * the faux model does.
 *
 * - Text and reasoning blocks open, grow and close by the SDK's part id; a delta for an id that
 *   never opened opens it (not every provider sends a start part).
 * - Tool calls: `tool-input-*` parts stream the argument text; the `tool-call` part carries the
 *   final input as JSON text. Text that is not JSON is passed on as is: the tool's lenient step
 *   repairs it or says exactly what is wrong.
 * - Calls the provider ran itself (server tools) are not ours to run and are left out.
 * - Provider metadata on any part of a block is merged into the block, so signatures that
 *   arrive on the last delta are kept.
 */
export class ReplyBuilder {
  readonly message: AssistantMessage;
  readonly #open = new Map<string, OpenBlock>();
  /** Tool call ids the provider executed itself. */
  readonly #skipped = new Set<string>();
  #finishReason: string | undefined;
  #usage: PartUsage | undefined;
  #error: { error: unknown } | undefined;

  constructor(modelId: string) {
    this.message = {
      role: "assistant",
      content: [],
      stopReason: "stop",
      model: modelId,
      timestamp: Date.now(),
    };
  }

  /** The `start` event. */
  start(): AssistantMessageEvent {
    return { type: "start", partial: this.message };
  }

  /** Applies one stream part; yields the events it causes (none for parts we do not map). */
  *apply(part: StreamPart): Generator<AssistantMessageEvent> {
    const partial = this.message;
    switch (part.type) {
      case "text-start":
      case "reasoning-start": {
        const kind = part.type === "text-start" ? "text" : "thinking";
        yield* this.#openBlock(part.id, kind, part.providerMetadata);
        break;
      }
      case "text-delta":
      case "reasoning-delta": {
        const kind = part.type === "text-delta" ? "text" : "thinking";
        if (!this.#open.has(part.id)) yield* this.#openBlock(part.id, kind, undefined);
        const { index } = this.#open.get(part.id)!;
        const block = this.#block({ index }) as TextContent | ThinkingContent;
        mergeMetadata(block, part.providerMetadata);
        if (part.delta === "") break;
        if (block.type === "text") block.text += part.delta;
        else block.thinking += part.delta;
        yield block.type === "text"
          ? { type: "text_delta", contentIndex: index, delta: part.delta, partial }
          : { type: "thinking_delta", contentIndex: index, delta: part.delta, partial };
        break;
      }
      case "text-end":
      case "reasoning-end": {
        const opened = this.#open.get(part.id);
        if (opened === undefined) break;
        this.#open.delete(part.id);
        const block = this.#block(opened) as TextContent | ThinkingContent;
        mergeMetadata(block, part.providerMetadata);
        yield endEvent(block, opened.index, partial);
        break;
      }
      case "tool-input-start": {
        if (part.providerExecuted === true) {
          this.#skipped.add(part.id);
          break;
        }
        yield* this.#openCall(part.id, part.toolName, part.providerMetadata);
        break;
      }
      case "tool-input-delta": {
        const opened = this.#open.get(part.id);
        if (opened === undefined || this.#skipped.has(part.id)) break;
        opened.inputText = (opened.inputText ?? "") + part.delta;
        yield { type: "toolcall_delta", contentIndex: opened.index, delta: part.delta, partial };
        break;
      }
      case "tool-call": {
        if (part.providerExecuted === true || this.#skipped.has(part.toolCallId)) break;
        if (!this.#open.has(part.toolCallId))
          yield* this.#openCall(part.toolCallId, part.toolName, part.providerMetadata);
        const opened = this.#open.get(part.toolCallId)!;
        this.#open.delete(part.toolCallId);
        const call = this.#block(opened) as ToolCall;
        call.name = part.toolName;
        call.arguments = parseArguments(part.input ?? opened.inputText) as Record<string, unknown>;
        mergeMetadata(call, part.providerMetadata);
        yield { type: "toolcall_end", contentIndex: opened.index, toolCall: call, partial };
        break;
      }
      case "finish":
        this.#finishReason = part.finishReason.unified;
        this.#usage = part.usage;
        break;
      case "error":
        this.#error ??= { error: part.error };
        break;
      default:
        // Sources, files, raw chunks, response metadata, tool input ends (the call part
        // follows), results of provider-executed tools: nothing for our message.
        break;
    }
  }

  /** Records a failure that happened outside the stream parts (the request or the stream threw). */
  fail(error: unknown): void {
    this.#error ??= { error };
  }

  /**
   * The closing event. Aborted (our signal fired) and failed replies
   * end with an `error` event and keep what streamed so far; a finished reply closes its open
   * blocks and ends with `done`.
   */
  *finish(signal: AbortSignal | undefined): Generator<AssistantMessageEvent> {
    const message = this.message;
    const usage = toUsage(this.#usage);
    if (usage !== undefined) message.usage = usage;
    if (signal?.aborted === true) {
      message.stopReason = "aborted";
      message.errorMessage = ABORTED_MESSAGE;
      yield { type: "error", message };
      return;
    }
    if (this.#error !== undefined) {
      message.stopReason = "error";
      message.errorMessage = describeProviderError(this.#error.error);
      yield { type: "error", message };
      return;
    }
    for (const [id, opened] of [...this.#open]) {
      this.#open.delete(id);
      const block = this.#block(opened);
      if (block.type === "toolCall") {
        // The provider never confirmed the call: hand over the argument text as streamed.
        block.arguments = parseArguments(opened.inputText) as Record<string, unknown>;
        yield { type: "toolcall_end", contentIndex: opened.index, toolCall: block, partial: message };
      } else {
        yield endEvent(block, opened.index, message);
      }
    }
    const hasToolCalls = message.content.some((block) => block.type === "toolCall");
    const { stopReason, errorMessage } = toStopReason(this.#finishReason, hasToolCalls);
    message.stopReason = stopReason;
    if (errorMessage !== undefined) {
      message.errorMessage = errorMessage;
      yield { type: "error", message };
      return;
    }
    yield { type: "done", message };
  }

  #block(opened: Pick<OpenBlock, "index">): Block {
    return this.message.content[opened.index]!;
  }

  *#openBlock(
    id: string,
    kind: "text" | "thinking",
    metadata: ProviderMetadata | undefined,
  ): Generator<AssistantMessageEvent> {
    const block: TextContent | ThinkingContent =
      kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" };
    mergeMetadata(block, metadata);
    const index = this.message.content.push(block) - 1;
    this.#open.set(id, { index });
    yield kind === "text"
      ? { type: "text_start", contentIndex: index, partial: this.message }
      : { type: "thinking_start", contentIndex: index, partial: this.message };
  }

  *#openCall(
    id: string,
    name: string,
    metadata: ProviderMetadata | undefined,
  ): Generator<AssistantMessageEvent> {
    const call: ToolCall = { type: "toolCall", id, name, arguments: {} };
    mergeMetadata(call, metadata);
    const index = this.message.content.push(call) - 1;
    this.#open.set(id, { index });
    yield { type: "toolcall_start", contentIndex: index, partial: this.message };
  }
}

function endEvent(
  block: TextContent | ThinkingContent,
  contentIndex: number,
  partial: AssistantMessage,
): AssistantMessageEvent {
  return block.type === "text"
    ? { type: "text_end", contentIndex, content: block, partial }
    : { type: "thinking_end", contentIndex, content: block, partial };
}

/** Merges metadata per provider key: a later part adds fields (a signature) without losing earlier ones. */
function mergeMetadata(block: Block, metadata: ProviderMetadata | undefined): void {
  if (metadata === undefined) return;
  const merged: ProviderMetadata = { ...block.providerMetadata };
  for (const [provider, fields] of Object.entries(metadata)) {
    if (fields === undefined || fields === null) continue;
    merged[provider] = { ...merged[provider], ...fields };
  }
  if (Object.keys(merged).length > 0) block.providerMetadata = merged;
}

/** Tool input text as arguments: parsed JSON, `{}` for nothing, else the text itself (for the lenient step). */
function parseArguments(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
