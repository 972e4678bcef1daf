import { describe, expect, it } from "vitest";
import { createFauxModel, fauxText, fauxThinking, fauxToolCall } from "../src/faux-model.js";
import { userMessage } from "../src/messages.js";
import type { AssistantMessageEvent, ModelContext } from "../src/model.js";

async function drain(iterable: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

const context: ModelContext = { messages: [userMessage("hi")], tools: [] };

describe("createFauxModel", () => {
  it("streams text and thinking as real delta events and ends with done", async () => {
    const faux = createFauxModel([{ content: [fauxThinking("let me think"), fauxText("Hello, world!")] }], {
      chunkSize: 5,
    });
    const events = await drain(faux.streamFn(faux.model, context, {}));
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "thinking_start",
      "thinking_delta",
      "thinking_delta",
      "thinking_delta",
      "thinking_end",
      "text_start",
      "text_delta",
      "text_delta",
      "text_delta",
      "text_end",
      "done",
    ]);
    const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
    expect(deltas).toEqual(["Hello", ", wor", "ld!"]);
    const done = events.at(-1);
    expect(done).toMatchObject({
      type: "done",
      message: {
        role: "assistant",
        stopReason: "stop",
        content: [
          { type: "thinking", thinking: "let me think" },
          { type: "text", text: "Hello, world!" },
        ],
      },
    });
  });

  it("streams tool calls as JSON deltas, delivers arguments exactly as scripted, stops for toolUse", async () => {
    const faux = createFauxModel([{ content: [fauxToolCall("read", '{"path":"a.ts","limit":"5"}', "c1")] }]);
    const events = await drain(faux.streamFn(faux.model, context, {}));
    const json = events.flatMap((e) => (e.type === "toolcall_delta" ? [e.delta] : [])).join("");
    expect(json).toBe('{"path":"a.ts","limit":"5"}');
    expect(events.at(-1)).toMatchObject({
      type: "done",
      message: {
        stopReason: "toolUse",
        content: [{ type: "toolCall", id: "c1", name: "read", arguments: '{"path":"a.ts","limit":"5"}' }],
      },
    });
  });

  it("answers with a function of the context, and records what it was sent", async () => {
    const faux = createFauxModel([(ctx) => `You said ${JSON.stringify(ctx.messages[0])}`.slice(0, 13)]);
    const events = await drain(faux.streamFn(faux.model, context, {}));
    expect(events.at(-1)).toMatchObject({ message: { content: [{ type: "text", text: 'You said {"ro' }] } });
    expect(faux.contexts).toHaveLength(1);
    expect(faux.contexts[0]?.messages).toEqual(context.messages);
    expect(faux.remaining).toBe(0);
  });

  it("reports a clear error inside the stream when the script runs out", async () => {
    const faux = createFauxModel(["only one"]);
    await drain(faux.streamFn(faux.model, context, {}));
    const events = await drain(faux.streamFn(faux.model, context, {}));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: "error",
      message: {
        stopReason: "error",
        errorMessage:
          "Faux model script ran out: reply 2 was requested but the script has 1. Add more replies to the script.",
      },
    });
  });

  it("stops streaming when aborted and ends with an aborted message holding the partial text", async () => {
    const faux = createFauxModel(["a long reply streamed slowly"], { chunkSize: 2, delayMs: 5 });
    const controller = new AbortController();
    const events: AssistantMessageEvent[] = [];
    for await (const event of faux.streamFn(faux.model, context, { signal: controller.signal })) {
      events.push(event);
      if (event.type === "text_delta" && events.length === 4) controller.abort();
    }
    const last = events.at(-1);
    expect(last?.type).toBe("error");
    expect(last).toMatchObject({ message: { stopReason: "aborted" } });
    const text = (last as { message: { content: { text: string }[] } }).message.content[0]?.text;
    expect(text).toBe("a lo");
  });

  it("streams deltasPerTurn deltas per event-loop turn: one by default, a whole reply with Infinity", async () => {
    /** For each text delta, how many event-loop turns had passed when it arrived. */
    async function turnsAtDeltas(deltasPerTurn?: number): Promise<number[]> {
      const faux = createFauxModel(["abcdef"], { chunkSize: 1, deltasPerTurn });
      let turns = 0;
      let streaming = true;
      const tick = () => {
        turns++;
        if (streaming) setImmediate(tick);
      };
      setImmediate(tick);
      const seen: number[] = [];
      for await (const event of faux.streamFn(faux.model, context, {})) {
        if (event.type === "text_delta") seen.push(turns);
      }
      streaming = false;
      return seen;
    }
    const distinct = (values: number[]) => new Set(values).size;
    expect(distinct(await turnsAtDeltas())).toBe(6);
    const inPairs = await turnsAtDeltas(2);
    expect(distinct(inPairs)).toBe(3);
    expect([inPairs[0] === inPairs[1], inPairs[2] === inPairs[3], inPairs[4] === inPairs[5]]).toEqual([
      true,
      true,
      true,
    ]);
    expect(distinct(await turnsAtDeltas(Number.POSITIVE_INFINITY))).toBe(1);
    expect(() => createFauxModel([], { deltasPerTurn: 0 })).toThrow(RangeError);
  });

  it("starts on the first read, as a generator would, and return() ends it at once, even during a pause", async () => {
    let asked = 0;
    const faux = createFauxModel(
      [
        () => {
          asked++;
          return "never read";
        },
        () => {
          asked++;
          return "abcdef";
        },
      ],
      { chunkSize: 1, delayMs: 20 },
    );
    const unread = faux.streamFn(faux.model, context, {})[Symbol.asyncIterator]();
    expect(asked).toBe(0);
    expect(await unread.return?.()).toEqual({ done: true, value: undefined });
    expect(await unread.next()).toEqual({ done: true, value: undefined });
    expect(asked).toBe(0);

    const stream = faux.streamFn(faux.model, context, {})[Symbol.asyncIterator]();
    expect((await stream.next()).value).toMatchObject({ type: "start" });
    expect(asked).toBe(1);
    expect((await stream.next()).value).toMatchObject({ type: "text_start" });
    // The next read waits out the delay before the first delta; return() meanwhile ends the stream.
    const waiting = stream.next();
    await stream.return?.();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it("replays scripted error stop reasons", async () => {
    const faux = createFauxModel([{ content: "partial", stopReason: "error", errorMessage: "overloaded" }]);
    const events = await drain(faux.streamFn(faux.model, context, {}));
    expect(events.at(-1)).toMatchObject({
      type: "error",
      message: { stopReason: "error", errorMessage: "overloaded" },
    });
  });
});
