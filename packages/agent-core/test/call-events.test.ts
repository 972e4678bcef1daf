import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/events.js";
import { createFauxModel, fauxToolCall } from "../src/faux-model.js";
import type { BeforeToolCallHook } from "../src/hooks.js";
import { agentLoop } from "../src/loop.js";
import { userMessage } from "../src/messages.js";
import { collect, echoTool } from "./support.js";

/** The start and end events of each call id, in the order they came. */
function callEvents(events: AgentEvent[]): Map<string, string[]> {
  const byCall = new Map<string, string[]>();
  for (const event of events) {
    if (event.type !== "tool_execution_start" && event.type !== "tool_execution_end") continue;
    const seen = byCall.get(event.toolCallId) ?? [];
    seen.push(event.type === "tool_execution_end" ? `end:${event.errorCode ?? "ok"}` : "start");
    byCall.set(event.toolCallId, seen);
  }
  return byCall;
}

/** Blocks `blocked`, throws on `thrown`, replaces the arguments of `replaced` with invalid ones. */
const gate: BeforeToolCallHook = ({ args }) => {
  if (args.text === "blocked") return { block: true, reason: "Blocked by the host. Ask the user first." };
  if (args.text === "thrown") throw new Error("approval service down");
  if (args.text === "replaced") return { args: { text: "x", count: "lots" } };
  return undefined;
};

async function runBatch(toolExecution: "parallel" | "sequential") {
  const log: string[] = [];
  const faux = createFauxModel([
    {
      content: [
        fauxToolCall("echo", { text: "blocked" }, "blocked"),
        fauxToolCall("echo", { text: "thrown" }, "thrown"),
        fauxToolCall("echo", { text: "replaced" }, "replaced"),
        fauxToolCall("echo", { count: "many" }, "invalid"),
        fauxToolCall("nope", {}, "unknown"),
        fauxToolCall("echo", { text: "runs" }, "runs"),
      ],
    },
    "final",
  ]);
  const tools = [echoTool("echo", { log })];
  const { events } = await collect(
    agentLoop([userMessage("go")], { messages: [], tools }, { ...faux, beforeToolCall: gate, toolExecution }),
  );
  return { events, log };
}

describe("tool_execution_start and tool_execution_end", () => {
  for (const mode of ["parallel", "sequential"] as const) {
    it(`give every call of a ${mode} batch one end, and a start (before it) only to the call that ran`, async () => {
      const { events, log } = await runBatch(mode);
      expect(log).toEqual(["start:runs", "end:runs"]);
      expect(Object.fromEntries(callEvents(events))).toEqual({
        blocked: ["end:blocked"],
        thrown: ["end:hook_failed"],
        replaced: ["end:invalid_arguments"],
        invalid: ["end:invalid_arguments"],
        unknown: ["end:tool_not_found"],
        runs: ["start", "end:ok"],
      });
    });
  }

  it("give a call the run aborted while its hook was still deciding an end and no start", async () => {
    const controller = new AbortController();
    const faux = createFauxModel([{ content: [fauxToolCall("echo", { text: "a" }, "waiting")] }]);
    const stream = agentLoop(
      [userMessage("go")],
      { messages: [], tools: [echoTool("echo")] },
      {
        ...faux,
        beforeToolCall: () => {
          // A person is asked and never answers; the run is aborted instead.
          controller.abort();
          return new Promise<undefined>(() => {});
        },
      },
      controller.signal,
    );
    const { events } = await collect(stream);
    expect(callEvents(events).get("waiting")).toEqual(["end:aborted"]);
  });

  it("give every call of a reply cut by the token limit an end and no start", async () => {
    const faux = createFauxModel([
      { content: [fauxToolCall("echo", { text: "a" }, "cut")], stopReason: "length" },
      "final",
    ]);
    const { events } = await collect(
      agentLoop([userMessage("go")], { messages: [], tools: [echoTool("echo")] }, faux),
    );
    expect(callEvents(events).get("cut")).toEqual(["end:length_stop"]);
  });
});
