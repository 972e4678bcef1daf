import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AbortDeadline, GAVE_UP, onAbort, waitUnlessAborted } from "../src/abort-race.js";
import { createFauxModel, fauxToolCall } from "../src/faux-model.js";
import { agentLoop } from "../src/loop.js";
import { type ToolResultMessage, userMessage } from "../src/messages.js";
import type { AgentTool } from "../src/tool.js";
import { collect, deferred, echoTool } from "./support.js";

const CALLS = 50;

/** MaxListenersExceededWarnings emitted while a test runs. */
let warnings: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.name === "MaxListenersExceededWarning") warnings.push(warning.message);
};
beforeEach(() => {
  warnings = [];
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
});

/** Warnings are emitted on the next tick: let them arrive before looking. */
const settledWarnings = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  return warnings;
};

/**
 * CALLS calls of `tool` in one message, run with `signal`; `allStarted` resolves once every call
 * is inside execute.
 */
function batchOf(tool: AgentTool) {
  const calls = Array.from({ length: CALLS }, (_, i) => fauxToolCall(tool.name, { text: `t${i}` }));
  return createFauxModel([{ content: calls }, "done"]);
}

/** A tool that waits until every call of the batch started, then for `release`. */
function gatedTool(onAllStarted: (signals: (AbortSignal | undefined)[]) => void) {
  const release = deferred();
  const signals: (AbortSignal | undefined)[] = [];
  const tool = echoTool("gated", {
    wait: async (_args, signal) => {
      signals.push(signal);
      if (signals.length === CALLS) onAllStarted(signals);
      await release.promise;
    },
  });
  return { tool, release: release.resolve, signals };
}

describe("abort listeners: one per batch, not one per call", () => {
  it("a message of 50 parallel calls adds one listener to the run's signal", async () => {
    const controller = new AbortController();
    let listenersWhileRunning = -1;
    const gated = gatedTool(() => {
      listenersWhileRunning = getEventListeners(controller.signal, "abort").length;
      gated.release();
    });
    const { result } = await collect(
      agentLoop(
        [userMessage("go")],
        { messages: [], tools: [gated.tool] },
        batchOf(gated.tool),
        controller.signal,
      ),
    );
    expect(result.filter((m): m is ToolResultMessage => m.role === "toolResult" && !m.isError)).toHaveLength(
      CALLS,
    );
    // One for the batch (the model stream shares it too); it was 50 and more before.
    expect(listenersWhileRunning).toBe(1);
    expect(await settledWarnings()).toEqual([]);
  });

  it("tools that listen to their signal themselves set off no MaxListenersExceededWarning", async () => {
    const controller = new AbortController();
    const gated = gatedTool((signals) => {
      // What an environment does for each call: its own listener on the call's signal.
      for (const signal of signals) signal?.addEventListener("abort", () => {}, { once: true });
      gated.release();
    });
    await collect(
      agentLoop(
        [userMessage("go")],
        { messages: [], tools: [gated.tool] },
        batchOf(gated.tool),
        controller.signal,
      ),
    );
    expect(await settledWarnings()).toEqual([]);
  });

  it("an abort still reaches every call of the batch", async () => {
    const controller = new AbortController();
    const seen: boolean[] = [];
    const tool = echoTool("listening", {
      wait: (_args, signal) =>
        new Promise<void>((resolve) => {
          seen.push(false);
          const index = seen.length - 1;
          signal?.addEventListener("abort", () => {
            seen[index] = true;
            resolve();
          });
          if (seen.length === CALLS) controller.abort();
        }),
    });
    const { result } = await collect(
      agentLoop([userMessage("go")], { messages: [], tools: [tool] }, batchOf(tool), controller.signal),
    );
    expect(seen).toEqual(Array(CALLS).fill(true));
    expect(result.filter((m) => m.role === "toolResult")).toHaveLength(CALLS);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("leaves no listener on the run's signal once the batch is done", async () => {
    const controller = new AbortController();
    const tool = echoTool("quick");
    await collect(
      agentLoop([userMessage("go")], { messages: [], tools: [tool] }, batchOf(tool), controller.signal),
    );
    // The one shared listener may stay (it holds no waiter); never one per call.
    expect(getEventListeners(controller.signal, "abort").length).toBeLessThanOrEqual(1);
  });
});

describe("onAbort", () => {
  it("calls every subscriber once through a single listener, and not the ones that left", () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const leaveA = onAbort(controller.signal, () => calls.push("a"));
    onAbort(controller.signal, () => calls.push("b"));
    onAbort(controller.signal, () => calls.push("c"));
    leaveA();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    controller.abort();
    expect(calls).toEqual(["b", "c"]);
  });

  it("an AbortDeadline gives up all its waits on abort through one listener; settled work keeps its value", async () => {
    const controller = new AbortController();
    const deadline = new AbortDeadline(controller.signal, 0);
    const never = new Promise<void>(() => {});
    const done = await deadline.race(Promise.resolve("done"));
    const races = Array.from({ length: CALLS }, () => deadline.race(never));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    expect(done).toBe("done");
    expect(await Promise.all(races)).toEqual(Array(CALLS).fill(GAVE_UP));
    // Past the deadline nothing is waited for, and a late failure is not left unhandled.
    expect(await deadline.race(Promise.reject(new Error("late")))).toBe(GAVE_UP);
    expect(await deadline.race(Promise.resolve("too late"))).toBe(GAVE_UP);
    deadline.release();
  });

  it("waitUnlessAborted still gives up on abort when many waits share the signal", async () => {
    const controller = new AbortController();
    const never = new Promise<void>(() => {});
    const waits = Array.from({ length: CALLS }, () => waitUnlessAborted(never, controller.signal, 0));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    expect(await Promise.all(waits)).toEqual(Array(CALLS).fill({ settled: false }));
  });
});
