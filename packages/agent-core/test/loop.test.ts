import { describe, expect, it } from "vitest";
import { LENGTH_STOP_MESSAGE } from "../src/executor.js";
import { createFauxModel, fauxText, fauxToolCall } from "../src/faux-model.js";
import { agentLoop } from "../src/loop.js";
import { type AssistantMessage, type ToolResultMessage, userMessage } from "../src/messages.js";
import type { AssistantMessageEvent, StreamFn } from "../src/model.js";
import type { AnyAgentTool } from "../src/tool.js";
import { collect, deferred, describeEvents, echoTool, untilAborted } from "./support.js";

function run(
  script: Parameters<typeof createFauxModel>[0],
  tools: AnyAgentTool[],
  extra = {},
  signal?: AbortSignal,
) {
  const faux = createFauxModel(script);
  const stream = agentLoop([userMessage("go")], { messages: [], tools }, { ...faux, ...extra }, signal);
  return { faux, done: collect(stream) };
}

function resultsOf(messages: unknown[]): ToolResultMessage[] {
  return messages.filter((m): m is ToolResultMessage => (m as { role: string }).role === "toolResult");
}

describe("agentLoop: event order", () => {
  it("emits agent_start, turn, message events and agent_end for a text reply", async () => {
    const { done } = run(["Hello"], []);
    const { events, result } = await done;
    expect(describeEvents(events)).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_update",
      "message_update",
      "message_update",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ]);
    expect(result.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("runs a tool call, sends the result back and ends with the model's final text", async () => {
    const { faux, done } = run(
      [{ content: [fauxText("Echoing."), fauxToolCall("echo", { text: "hi" }, "c1")] }, "Done."],
      [echoTool()],
    );
    const { events, result } = await done;
    const order = describeEvents(events).filter((e) => e !== "message_update");
    expect(order).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_end:assistant",
      "tool_execution_start:c1",
      "tool_execution_end:c1",
      "message_start:toolResult",
      "message_end:toolResult",
      "turn_end",
      "turn_start",
      "message_start:assistant",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ]);
    expect(resultsOf(result)[0]).toMatchObject({ toolCallId: "c1", toolName: "echo", isError: false });
    expect(faux.contexts[1]?.messages.at(-1)).toMatchObject({
      role: "toolResult",
      content: [{ text: "echo:hi" }],
    });
    expect(result.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Done." }] });
  });

  it("streams a tool's partial results as tool_execution_update events between start and end", async () => {
    const progress: AnyAgentTool = {
      ...echoTool("progress"),
      async execute(_id, args, _signal, onUpdate) {
        onUpdate?.({ content: [{ type: "text", text: "half" }], details: { pct: 50 } });
        onUpdate?.({ content: [{ type: "text", text: "almost" }], details: { pct: 90 } });
        return { content: [{ type: "text", text: `done ${args.text}` }], details: { pct: 100 } };
      },
    };
    const { events } = await run(
      [{ content: [fauxToolCall("progress", { text: "x" }, "p")] }, "ok"],
      [progress],
    ).done;
    const tool = events.filter((e) => e.type.startsWith("tool_execution"));
    expect(describeEvents(tool)).toEqual([
      "tool_execution_start:p",
      "tool_execution_update:p",
      "tool_execution_update:p",
      "tool_execution_end:p",
    ]);
    expect(tool[1]).toMatchObject({ args: { text: "x" }, partialResult: { details: { pct: 50 } } });
  });

  it("does not mutate the context it was given", async () => {
    const context = { messages: [userMessage("earlier")], tools: [] };
    await collect(agentLoop([userMessage("now")], context, createFauxModel(["ok"])));
    expect(context.messages).toHaveLength(1);
  });

  it("ends the run with the model's error message when the stream fails", async () => {
    const { events, result } = await run([], []).done;
    expect(result.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(describeEvents(events).slice(-2)).toEqual(["turn_end", "agent_end"]);
  });
});

describe("agentLoop: a model stream that breaks its contract ends the run cleanly", () => {
  const model = { id: "broken", provider: "test" };
  const partial: AssistantMessage = {
    role: "assistant",
    content: [],
    stopReason: "stop",
    model: "broken",
    timestamp: 0,
  };
  const cases: [string, StreamFn, unknown][] = [
    [
      "streamFn throws",
      () => {
        throw new Error("no connection");
      },
      "Model stream failed: no connection",
    ],
    [
      "a read rejects",
      async function* () {
        yield { type: "start", partial };
        throw new Error("socket closed");
      },
      "Model stream failed: socket closed",
    ],
    [
      "an event is not an object",
      async function* () {
        yield null as unknown as AssistantMessageEvent;
      },
      // The TypeError's own words are V8's.
      expect.stringMatching(/^Model stream failed: \S/),
    ],
    [
      "the stream ends without done",
      async function* () {
        yield { type: "start", partial };
      },
      "Model stream ended without a final message.",
    ],
  ];
  for (const [name, streamFn, errorMessage] of cases) {
    it(`${name}: an error reply, message_start before message_end, then agent_end`, async () => {
      const { events, result } = await collect(
        agentLoop(
          [userMessage("go")],
          { messages: [], tools: [] },
          { model, streamFn },
          new AbortController().signal,
        ),
      );
      expect(result.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage });
      expect(describeEvents(events).slice(-4)).toEqual([
        "message_start:assistant",
        "message_end:assistant",
        "turn_end",
        "agent_end",
      ]);
      expect(describeEvents(events).filter((type) => type === "message_start:assistant")).toHaveLength(1);
    });
  }
});

describe("agentLoop: parallel and sequential batches", () => {
  it("runs parallel calls together: end events in completion order, results in the model's order", async () => {
    const fastDone = deferred();
    const log: string[] = [];
    // slow finishes one event-loop turn after fast has finished (fast's end is all microtasks).
    const slow = echoTool("slow", {
      log,
      wait: () => fastDone.promise.then(() => new Promise<void>((r) => setImmediate(r))),
    });
    const fast = echoTool("fast", { log, wait: async () => fastDone.resolve() });
    const { done } = run(
      [
        { content: [fauxToolCall("slow", { text: "1" }, "a"), fauxToolCall("fast", { text: "2" }, "b")] },
        "ok",
      ],
      [slow, fast],
    );
    const { events, result } = await done;
    const order = describeEvents(events).filter((e) => e.startsWith("tool_") || e.includes("toolResult"));
    expect(order).toEqual([
      "tool_execution_start:a",
      "tool_execution_start:b",
      "tool_execution_end:b",
      "tool_execution_end:a",
      "message_start:toolResult",
      "message_end:toolResult",
      "message_start:toolResult",
      "message_end:toolResult",
    ]);
    // slow started before fast ended: they ran together.
    expect(log).toEqual(["start:1", "start:2", "end:2", "end:1"]);
    expect(resultsOf(result).map((r) => r.toolCallId)).toEqual(["a", "b"]);
  });

  it("runs the whole batch one at a time when any tool in it is sequential", async () => {
    const log: string[] = [];
    const tick = () => new Promise<void>((r) => setTimeout(r, 1));
    const a = echoTool("a", { log, wait: tick });
    const b = echoTool("b", { log, wait: tick, executionMode: "sequential" });
    const { done } = run(
      [
        {
          content: [
            fauxToolCall("a", { text: "1" }),
            fauxToolCall("b", { text: "2" }),
            fauxToolCall("a", { text: "3" }),
          ],
        },
        "ok",
      ],
      [a, b],
    );
    await done;
    expect(log).toEqual(["start:1", "end:1", "start:2", "end:2", "start:3", "end:3"]);
  });

  it("runs sequentially when the config says so", async () => {
    const log: string[] = [];
    const tool = echoTool("a", { log, wait: () => new Promise((r) => setTimeout(r, 1)) });
    const { done } = run(
      [{ content: [fauxToolCall("a", { text: "1" }), fauxToolCall("a", { text: "2" })] }, "ok"],
      [tool],
      { toolExecution: "sequential" },
    );
    await done;
    expect(log).toEqual(["start:1", "end:1", "start:2", "end:2"]);
  });

  it("gives every call of a reply cut by the token limit an error result and runs none", async () => {
    const log: string[] = [];
    const { done } = run(
      [
        {
          content: [fauxToolCall("echo", { text: "1" }), fauxToolCall("echo", { text: "2" })],
          stopReason: "length",
        },
        "ok",
      ],
      [echoTool("echo", { log })],
    );
    const { result } = await done;
    expect(log).toEqual([]);
    const results = resultsOf(result);
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r).toMatchObject({ isError: true, errorCode: "length_stop" });
      expect(r.content).toEqual([{ type: "text", text: LENGTH_STOP_MESSAGE }]);
    }
    expect(LENGTH_STOP_MESSAGE).toContain('stopReason "length"');
  });

  it("ends the run after a batch only when every result says terminate", async () => {
    const stop = echoTool("stop", { terminate: true });
    const go = echoTool("go");
    const some = run(
      [{ content: [fauxToolCall("stop", { text: "1" }), fauxToolCall("go", { text: "2" })] }, "continued"],
      [stop, go],
    );
    expect((await some.done).result.at(-1)).toMatchObject({ content: [{ text: "continued" }] });
    const all = run(
      [{ content: [fauxToolCall("stop", { text: "1" }), fauxToolCall("stop", { text: "2" })] }, "never"],
      [stop],
    );
    const { result, events } = await all.done;
    expect(result.at(-1)).toMatchObject({ role: "toolResult" });
    expect(all.faux.remaining).toBe(1);
    expect(events.at(-1)?.type).toBe("agent_end");
  });

  it("carries the error code into the result message and the tool_execution_end event", async () => {
    const { result, events } = await run([{ content: [fauxToolCall("nope", {})] }, "ok"], [echoTool()]).done;
    expect(resultsOf(result)[0]).toMatchObject({ isError: true, errorCode: "tool_not_found" });
    expect(events.find((e) => e.type === "tool_execution_end")).toMatchObject({
      isError: true,
      errorCode: "tool_not_found",
    });
    const ok = await run([{ content: [fauxToolCall("echo", { text: "a" })] }, "ok"], [echoTool()]).done;
    expect(resultsOf(ok.result)[0]).not.toHaveProperty("errorCode");
    expect(ok.events.find((e) => e.type === "tool_execution_end")).not.toHaveProperty("errorCode");
  });

  it("answers an unknown tool with an error result naming the available tools", async () => {
    const { result } = await run([{ content: [fauxToolCall("nope", {})] }, "ok"], [echoTool()]).done;
    expect(resultsOf(result)[0]).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: `Unknown tool "nope". Available tools: echo. Call one of them by its exact name.`,
        },
      ],
    });
  });
});

describe("agentLoop: abort", () => {
  it("aborts in the middle of a parallel batch: finished calls keep results, running ones are aborted", async () => {
    const controller = new AbortController();
    const waiting = echoTool("wait", { wait: (_args, signal) => untilAborted(signal) });
    // quick aborts the run one event-loop turn after it returns, i.e. after its end event.
    const quick = echoTool("quick", { wait: async () => void setImmediate(() => controller.abort()) });
    const { done } = run(
      [
        { content: [fauxToolCall("quick", { text: "1" }, "q"), fauxToolCall("wait", { text: "2" }, "w")] },
        "never",
      ],
      [waiting, quick],
      {},
      controller.signal,
    );
    const { result, events } = await done;
    const results = resultsOf(result);
    expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
      ["q", false],
      ["w", true],
    ]);
    expect(results[1]?.content).toEqual([
      {
        type: "text",
        text: "Tool wait was aborted before it finished. Check its effects before calling it again.",
      },
    ]);
    expect(events.at(-1)?.type).toBe("agent_end");
    expect(result.filter((m) => m.role === "assistant")).toHaveLength(1);
  });

  it("gives calls never reached because of abort an explicit aborted result", async () => {
    const controller = new AbortController();
    const log: string[] = [];
    const hookSignals: (AbortSignal | undefined)[] = [];
    const { done } = run(
      [
        {
          content: [
            fauxToolCall("echo", { text: "1" }, "first"),
            fauxToolCall("echo", { text: "2" }, "second"),
            fauxToolCall("echo", { text: "3" }, "third"),
          ],
        },
        "never",
      ],
      [echoTool("echo", { log })],
      {
        toolExecution: "sequential",
        beforeToolCall: (_ctx: unknown, signal: AbortSignal | undefined) => {
          hookSignals.push(signal);
          if (log.length > 0) controller.abort();
        },
      },
      controller.signal,
    );
    const { result } = await done;
    const results = resultsOf(result);
    expect(log).toEqual(["start:1", "end:1"]);
    expect(results.map((r) => r.isError)).toEqual([false, true, true]);
    for (const unreached of results.slice(1)) {
      expect(unreached.content).toEqual([
        {
          type: "text",
          text: "Not run: the run was aborted before this call started. Call it again if it is still needed.",
        },
      ]);
    }
    // The hooks got the batch's signal, which the run's abort reached too.
    expect(hookSignals.map((signal) => signal?.aborted)).toEqual([true, true]);
  });

  it("aborts a call that is running, and the model stream", async () => {
    const controller = new AbortController();
    const waiting = echoTool("wait", {
      wait: (_args, signal) => {
        setTimeout(() => controller.abort(), 1);
        return untilAborted(signal);
      },
    });
    const { result } = await run(
      [{ content: [fauxToolCall("wait", { text: "x" }, "w1")] }, "never"],
      [waiting],
      {},
      controller.signal,
    ).done;
    expect(resultsOf(result)[0]).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: "Tool wait was aborted before it finished. Check its effects before calling it again.",
        },
      ],
    });

    const second = new AbortController();
    const slowModel = createFauxModel(
      [
        () => {
          // Fires before the first delta (due after 2 ms): the abort lands mid-stream.
          setTimeout(() => second.abort(), 1);
          return "a long answer that streams slowly";
        },
      ],
      { chunkSize: 1, delayMs: 2 },
    );
    const stream = agentLoop([userMessage("go")], { messages: [], tools: [] }, slowModel, second.signal);
    const { result: aborted } = await collect(stream);
    expect(aborted.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
  });
});

describe("agentLoop: malformed arguments of real model shapes", () => {
  it("repairs JSON-string arguments, numeric strings and nulls, and reports what cannot be repaired", async () => {
    const { faux, done } = run(
      [
        {
          content: [
            fauxToolCall("echo", '{"text":"from a JSON string","count":"3"}', "s"),
            fauxToolCall("echo", { text: "x", count: null, reason: "extra" }, "n"),
            fauxToolCall("echo", { count: "three" }, "bad"),
          ],
        },
        "ok",
      ],
      [echoTool()],
    );
    const { result } = await done;
    const [s, n, bad] = resultsOf(result);
    expect(s).toMatchObject({ isError: false, details: { args: { text: "from a JSON string", count: 3 } } });
    expect(n).toMatchObject({ isError: false, details: { args: { text: "x" } } });
    expect(bad?.isError).toBe(true);
    const text = (bad?.content[0] as { text: string } | undefined)?.text;
    expect(text).toContain("- text: expected string, received nothing. Add text (string).");
    expect(text).toContain('- count: expected integer, received string "three". Send count as integer.');
    expect(faux.contexts[1]?.messages.at(-1)).toMatchObject({
      role: "toolResult",
      toolCallId: "bad",
      isError: true,
    });
  });
});

describe("agentLoop: host callbacks", () => {
  it("ends with agent_end and a failed result when a steering callback throws", async () => {
    const faux = createFauxModel([{ content: [fauxToolCall("echo", { text: "x" })] }, "never"]);
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [], tools: [echoTool()] },
      {
        ...faux,
        getSteeringMessages: () => {
          throw new Error("queue unavailable");
        },
      },
    );
    const events = [];
    for await (const event of stream) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "agent_end" });
    await expect(stream.result()).rejects.toThrow("queue unavailable");
  });
});
