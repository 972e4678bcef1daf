import { createHook } from "node:async_hooks";
import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/events.js";
import { executeToolCalls } from "../src/executor.js";
import { type AssistantMessage, type ToolCall, userMessage } from "../src/messages.js";
import type { AgentTool } from "../src/tool.js";
import type { CallScope } from "../src/tool-call.js";

function batchOf(count: number): { calls: ToolCall[]; assistantMessage: AssistantMessage } {
  const calls: ToolCall[] = Array.from({ length: count }, (_, i) => ({
    type: "toolCall",
    id: `c${i}`,
    name: "echo",
    arguments: { text: `t${i}` },
  }));
  const assistantMessage: AssistantMessage = {
    role: "assistant",
    content: calls,
    stopReason: "toolUse",
    model: "test",
    timestamp: 0,
  };
  return { calls, assistantMessage };
}

const resultParams = Type.Object({ text: Type.String() });

/** Answers with one promise of its own (`Promise.resolve`), so what the executor adds is countable. */
const plainTool: AgentTool<typeof resultParams> = {
  name: "echo",
  label: "echo",
  description: "Echoes text.",
  parameters: resultParams,
  execute: (_id, args) =>
    Promise.resolve({ content: [{ type: "text", text: `echo:${args.text}` }], details: {} }),
};

function scopeOf(
  assistantMessage: AssistantMessage,
  emit: (event: AgentEvent) => void,
  signal: AbortSignal | undefined,
): CallScope {
  return {
    assistantMessage,
    context: { messages: [userMessage("go")], tools: [plainTool] },
    config: {},
    signal,
    emit,
  };
}

/** Promises created while `run` runs (async_hooks sees every native promise). */
async function promisesMadeBy(run: () => Promise<unknown>): Promise<number> {
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") made += 1;
    },
  });
  hook.enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return made;
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
  unhandled.length = 0;
});

describe("executeToolCalls in callback form", () => {
  it("a parallel call costs two promises: the tool's own and one wait for it", async () => {
    // Before, each call went through a chain of async functions and a race promise: 8 per call.
    const made = async (count: number) => {
      const { calls, assistantMessage } = batchOf(count);
      const scope = scopeOf(assistantMessage, () => {}, new AbortController().signal);
      return promisesMadeBy(() => executeToolCalls(calls, scope));
    };
    await made(10); // module-level setup out of the way
    const perCall = ((await made(200)) - (await made(100))) / 100;
    expect(perCall).toBe(2);
  });

  it("results keep the model's order and every call ends once, with and without a signal", async () => {
    for (const signal of [undefined, new AbortController().signal]) {
      const { calls, assistantMessage } = batchOf(50);
      const ended: string[] = [];
      const scope = scopeOf(
        assistantMessage,
        (event) => {
          if (event.type === "tool_execution_end") ended.push(event.toolCallId);
        },
        signal,
      );
      const batch = await executeToolCalls(calls, scope);
      expect(batch.results.map((result) => result.toolCallId)).toEqual(calls.map((call) => call.id));
      expect(batch.results.map((result) => result.content)).toEqual(
        calls.map((_, i) => [{ type: "text", text: `echo:t${i}` }]),
      );
      expect([...ended].sort()).toEqual(calls.map((call) => call.id).sort());
    }
  });

  it("an empty batch resolves", async () => {
    const { assistantMessage } = batchOf(0);
    const batch = await executeToolCalls(
      [],
      scopeOf(assistantMessage, () => {}, undefined),
    );
    expect(batch).toEqual({ results: [], terminate: false });
  });

  it("a listener that throws at a call's end rejects the batch, never an unhandled rejection", async () => {
    process.on("unhandledRejection", onUnhandled);
    const { calls, assistantMessage } = batchOf(5);
    const broken = new Error("listener broke");
    const scope = scopeOf(
      assistantMessage,
      (event) => {
        if (event.type === "tool_execution_end" && event.toolCallId === "c3") throw broken;
      },
      new AbortController().signal,
    );
    await expect(executeToolCalls(calls, scope)).rejects.toBe(broken);
    // A rejection nobody handled is reported after the microtasks of its turn.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });
});
