import { describe, expect, it } from "vitest";
import { Agent } from "../src/agent.js";
import { createFauxModel, fauxToolCall } from "../src/faux-model.js";
import { invokeTool } from "../src/invoke-tool.js";
import { agentLoop } from "../src/loop.js";
import { type AssistantMessage, type ToolResultMessage, userMessage } from "../src/messages.js";
import type { StreamFn } from "../src/model.js";
import type { AgentTool, AgentToolUpdateCallback } from "../src/tool.js";
import { ToolError } from "../src/tool-error.js";
import { collect, deferred, echoTool } from "./support.js";

/** A tool that never looks at its signal: it settles only when the test says so. */
function deafTool(started: () => void) {
  const release = deferred();
  let update: AgentToolUpdateCallback | undefined;
  const tool: AgentTool = {
    ...echoTool("deaf"),
    async execute(_id, _args, _signal, onUpdate) {
      update = onUpdate;
      started();
      await release.promise;
      update?.({ content: [{ type: "text", text: "late progress" }], details: {} });
      return { content: [{ type: "text", text: "late result" }], details: {} };
    },
  };
  return { tool, release: () => release.resolve() };
}

const textOf = (message: { content: unknown[] } | undefined) =>
  (message?.content[0] as { text?: string } | undefined)?.text;

describe("abort: the run stops waiting for what ignores the signal", () => {
  it("invokeTool gives a tool that ignores the signal an aborted outcome, and drops its late updates", async () => {
    const controller = new AbortController();
    const updates: string[] = [];
    const deaf = deafTool(() => controller.abort());
    const outcome = await invokeTool(
      deaf.tool,
      { text: "x" },
      { signal: controller.signal, abortGraceMs: 0, onUpdate: (p) => updates.push(textOf(p) ?? "") },
    );
    expect(outcome).toMatchObject({ isError: true, errorCode: "aborted", details: { stillRunning: true } });
    expect(textOf(outcome)).toBe(
      "Tool deaf was aborted and did not stop; it may still be running and its effects are unknown. Check them before calling it again.",
    );
    deaf.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(updates).toEqual([]);
  });

  it("waits the grace period and names it in the message", async () => {
    const controller = new AbortController();
    const deaf = deafTool(() => controller.abort());
    const outcome = await invokeTool(
      deaf.tool,
      { text: "x" },
      { signal: controller.signal, abortGraceMs: 20 },
    );
    expect(textOf(outcome)).toContain("did not stop within 0.02 s");
    deaf.release();
  });

  it("a tool that stops within the grace keeps its own result", async () => {
    const controller = new AbortController();
    const honest: AgentTool = {
      ...echoTool("honest"),
      execute: (_id, _args, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () =>
            setImmediate(() =>
              reject(new ToolError("aborted", "Command cancelled after 1 s. Output: partial")),
            ),
          );
          controller.abort();
        }),
    };
    const outcome = await invokeTool(honest, { text: "x" }, { signal: controller.signal });
    expect(textOf(outcome)).toBe("Command cancelled after 1 s. Output: partial");
  });

  it("the loop ends with an aborted result for a running tool that ignores the signal", async () => {
    const controller = new AbortController();
    const deaf = deafTool(() => controller.abort());
    const faux = createFauxModel([{ content: [fauxToolCall("deaf", { text: "x" }, "d")] }, "never"]);
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [], tools: [deaf.tool] },
      { ...faux, abortGraceMs: 0 },
      controller.signal,
    );
    const { events, result } = await collect(stream);
    const toolResult = result.find((m): m is ToolResultMessage => m.role === "toolResult");
    expect(toolResult).toMatchObject({ toolCallId: "d", isError: true, details: { stillRunning: true } });
    expect(events.at(-1)?.type).toBe("agent_end");
    expect(faux.remaining).toBe(1);
    deaf.release();
  });

  it("in a loop batch, the grace is shared: a deaf call is given up after it, an honest one keeps its result", async () => {
    const controller = new AbortController();
    let started = 0;
    const deaf = deafTool(() => {
      started++;
    });
    const honest = echoTool("honest", {
      wait: (_args, signal) =>
        new Promise<void>((resolve) => {
          // Stops a moment after the abort, well within the grace.
          signal?.addEventListener("abort", () => setImmediate(resolve));
          started++;
          if (started === 2) controller.abort();
        }),
    });
    const faux = createFauxModel([
      { content: [fauxToolCall("deaf", { text: "x" }, "d"), fauxToolCall("honest", { text: "y" }, "h")] },
      "never",
    ]);
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [], tools: [deaf.tool, honest] },
      { ...faux, abortGraceMs: 30 },
      controller.signal,
    );
    const { result } = await collect(stream);
    const results = result.filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.map((m) => [m.toolCallId, m.isError, textOf(m)])).toEqual([
      [
        "d",
        true,
        "Tool deaf was aborted and did not stop within 0.03 s; it may still be running and its effects are unknown. Check them before calling it again.",
      ],
      ["h", false, "honest:y"],
    ]);
    deaf.release();
  });

  it("a batch aborted with a long grace leaves no timer behind once its calls have stopped", async () => {
    const controller = new AbortController();
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const before = timers();
    let started = 0;
    const honest = echoTool("honest", {
      wait: (_args, signal) =>
        new Promise<void>((resolve) => {
          signal?.addEventListener("abort", () => resolve());
          if (++started === 3) controller.abort();
        }),
    });
    const faux = createFauxModel([
      { content: [0, 1, 2].map((n) => fauxToolCall("honest", { text: `t${n}` })) },
      "never",
    ]);
    const { result } = await collect(
      agentLoop(
        [userMessage("go")],
        { messages: [], tools: [honest] },
        { ...faux, abortGraceMs: 60_000 },
        controller.signal,
      ),
    );
    expect(result.filter((m) => m.role === "toolResult" && !m.isError)).toHaveLength(3);
    // A grace timer left running would hold the host's process open for a minute.
    expect(timers()).toBe(before);
  });

  it("Agent.abort() ends the run even when a tool ignores the signal", async () => {
    const started = deferred();
    const deaf = deafTool(() => started.resolve());
    const faux = createFauxModel([{ content: [fauxToolCall("deaf", { text: "x" })] }, "never"]);
    const agent = new Agent({ ...faux, tools: [deaf.tool], abortGraceMs: 0 });
    const running = agent.prompt("go");
    await started.promise;
    agent.abort();
    await running;
    await agent.waitForIdle();
    expect(agent.state.isRunning).toBe(false);
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "toolResult", isError: true });
    deaf.release();
  });

  it("a beforeToolCall hook that never answers (a confirm nobody sees) does not hold an aborted run", async () => {
    const controller = new AbortController();
    const log: string[] = [];
    const faux = createFauxModel([{ content: [fauxToolCall("echo", { text: "x" })] }, "never"]);
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [], tools: [echoTool("echo", { log })] },
      {
        ...faux,
        beforeToolCall: () => {
          setImmediate(() => controller.abort());
          return new Promise(() => {});
        },
      },
      controller.signal,
    );
    const { result } = await collect(stream);
    expect(log).toEqual([]);
    expect(textOf(result.at(-1) as ToolResultMessage)).toBe(
      "Not run: the run was aborted before this call started. Call it again if it is still needed.",
    );
  });

  it("an afterToolCall hook cut off by abort discards the unchecked result", async () => {
    const controller = new AbortController();
    const faux = createFauxModel([{ content: [fauxToolCall("echo", { text: "secret" })] }, "never"]);
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [], tools: [echoTool()] },
      {
        ...faux,
        abortGraceMs: 0,
        afterToolCall: () => {
          setImmediate(() => controller.abort());
          return new Promise(() => {});
        },
      },
      controller.signal,
    );
    const { result } = await collect(stream);
    const last = result.at(-1) as ToolResultMessage;
    expect(last).toMatchObject({ role: "toolResult", isError: true });
    expect(textOf(last)).toContain("aborted before the afterToolCall hook finished");
    expect(JSON.stringify(last)).not.toContain("echo:secret");
  });

  it("a model stream that ignores the signal is cut off with the partial reply marked aborted", async () => {
    const controller = new AbortController();
    const partial: AssistantMessage = {
      role: "assistant",
      content: [{ type: "text", text: "Half an ans" }],
      stopReason: "stop",
      model: "deaf",
      timestamp: 0,
    };
    const deafStream: StreamFn = async function* () {
      yield { type: "start", partial };
      yield { type: "text_delta", contentIndex: 0, delta: "Half an ans", partial };
      setImmediate(() => controller.abort());
      await new Promise(() => {});
    };
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [], tools: [] },
      { model: { id: "deaf", provider: "test" }, streamFn: deafStream },
      controller.signal,
    );
    const { events, result } = await collect(stream);
    expect(result.at(-1)).toMatchObject({
      role: "assistant",
      stopReason: "aborted",
      errorMessage: "Request was aborted.",
      content: [{ type: "text", text: "Half an ans" }],
    });
    expect(events.at(-1)?.type).toBe("agent_end");
  });
});
