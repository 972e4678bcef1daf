import { describe, expect, it } from "vitest";
import { assembleAuditRecords } from "../src/audit/assemble.js";
import { changedFields } from "../src/audit/call-audit.js";
import { AUDIT_STRING_CHARS, summarizeArguments } from "../src/audit/recorder.js";
import { createMemoryAuditSink } from "../src/audit/sink.js";
import { createFauxModel, fauxToolCall } from "../src/faux-model.js";
import { invokeTool } from "../src/invoke-tool.js";
import { agentLoop } from "../src/loop.js";
import { userMessage } from "../src/messages.js";
import { collect, echoTool } from "./support.js";

describe("invokeTool audit", () => {
  it("records intent (requested by the user), validation with the repaired fields, output size and end", async () => {
    const sink = createMemoryAuditSink();
    const outcome = await invokeTool(
      echoTool(),
      { text: "hi", count: "2" } as unknown, // a model's string count, repaired
      { toolCallId: "c1", audit: { sink, requestedBy: "user", sessionId: "s1" } },
    );
    expect(outcome.isError).toBe(false);
    const [record] = assembleAuditRecords(sink.events);
    expect(record?.intent).toMatchObject({
      tool: "echo",
      requestedBy: "user",
      sessionId: "s1",
      source: "invoke",
    });
    expect(record?.intent?.args).toBe('{"text":"hi","count":"2"}');
    expect(record?.decisions).toEqual([
      expect.objectContaining({ gate: "repair", verdict: "changed", changed: ["count"] }),
    ]);
    expect(record?.output?.result).toEqual({ blocks: 1, textBytes: expect.any(Number), images: 0 });
    expect(record?.end).toMatchObject({ scope: "call", status: "completed", isError: false });
    expect(record?.ended).toBe(true);
  });

  it("records a plain call in three events, the result's size with the end; files with an output event still read", async () => {
    const sink = createMemoryAuditSink();
    await invokeTool(echoTool(), { text: "hi" }, { toolCallId: "c0", audit: { sink } });
    expect(sink.events.map((event) => event.kind)).toEqual(["intent", "decision", "end"]);
    const end = sink.events[2];
    expect(end).toMatchObject({ scope: "call", result: { blocks: 1, images: 0 } });
    const at = end?.at ?? "";
    const older = assembleAuditRecords([
      {
        v: 1,
        kind: "intent",
        callId: "o",
        at,
        source: "invoke",
        tool: "echo",
        args: "{}",
        requestedBy: "model",
      },
      {
        v: 1,
        kind: "output",
        callId: "o",
        at,
        source: "invoke",
        result: { blocks: 2, textBytes: 5, images: 0 },
      },
      {
        v: 1,
        kind: "end",
        callId: "o",
        at,
        source: "invoke",
        scope: "call",
        status: "completed",
        durationMs: 1,
      },
    ]);
    expect(older[0]?.output?.result).toEqual({ blocks: 2, textBytes: 5, images: 0 });
  });

  it("records a refused call: the validation problem, and an end that says failed", async () => {
    const sink = createMemoryAuditSink();
    await invokeTool(echoTool(), { count: 1 } as unknown, { toolCallId: "c2", audit: { sink } });
    const [record] = assembleAuditRecords(sink.events);
    expect(record?.intent?.requestedBy).toBe("model");
    expect(record?.decisions[0]).toMatchObject({
      gate: "validation",
      verdict: "deny",
      code: "invalid_arguments",
    });
    expect(record?.decisions[0]?.reason).toContain("text");
    expect(record?.end).toMatchObject({ status: "failed", errorCode: "invalid_arguments" });
  });

  it("records an aborted call as cancelled", async () => {
    const sink = createMemoryAuditSink();
    const controller = new AbortController();
    const tool = echoTool("slow", {
      wait: (_args, signal) =>
        new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("stop")))),
    });
    const running = invokeTool(
      tool,
      { text: "x" },
      { toolCallId: "c3", signal: controller.signal, audit: { sink } },
    );
    controller.abort();
    await running;
    expect(assembleAuditRecords(sink.events)[0]?.end).toMatchObject({
      status: "cancelled",
      errorCode: "aborted",
    });
  });

  it("records nothing without a sink and keeps long arguments short", async () => {
    const sink = createMemoryAuditSink();
    await invokeTool(echoTool(), { text: "y".repeat(5000) }, { toolCallId: "c4", audit: { sink } });
    const intent = assembleAuditRecords(sink.events)[0]?.intent;
    expect(intent?.args.length).toBeLessThan(400);
    expect(intent?.args).toContain("(5000 chars)");
  });

  it("summarises arguments as their JSON, cutting strings over the limit at any depth", () => {
    const edge = "e".repeat(AUDIT_STRING_CHARS);
    expect(summarizeArguments({ path: "a.ts", n: 1, list: [edge, null] })).toBe(
      JSON.stringify({ path: "a.ts", n: 1, list: [edge, null] }),
    );
    const deep = summarizeArguments({ edits: [{ oldText: `${edge}!` }] });
    expect(deep).toBe(`{"edits":[{"oldText":"${edge}… (${AUDIT_STRING_CHARS + 1} chars)"}]}`);
    const viaToJson = summarizeArguments({ value: { toJSON: () => `${edge}!` } });
    expect(viaToJson).toContain(`(${AUDIT_STRING_CHARS + 1} chars)`);
    expect(summarizeArguments(undefined)).toBe("undefined");
  });

  it("names the changed fields: added, removed, renamed, or changed in value", () => {
    expect(changedFields({ a: 1, b: { x: 1 } }, { a: 1, b: { x: 1 } })).toEqual([]);
    expect(changedFields({ a: 1 }, { a: 1, b: 2 })).toEqual(["b"]);
    expect(changedFields({ a: 1, b: 2 }, { a: 1, c: 2 })).toEqual(["b", "c"]);
    expect(changedFields({ a: 1, b: 2 }, { a: 1, c: undefined })).toEqual(["b"]);
    expect(changedFields({ a: 1, b: "2" }, { a: 1, b: 2 })).toEqual(["b"]);
    expect(changedFields("text", { a: 1 })).toEqual(["(arguments)"]);
  });

  it("a throwing sink does not fail the call", async () => {
    const outcome = await invokeTool(
      echoTool(),
      { text: "ok" },
      {
        audit: {
          sink: {
            append() {
              throw new Error("disk full");
            },
          },
        },
      },
    );
    expect(outcome.isError).toBe(false);
  });
});

describe("agent loop audit", () => {
  it("records each call of a turn with its turn id, the hook that rewrote arguments and the one that patched the result", async () => {
    const sink = createMemoryAuditSink();
    const faux = createFauxModel([
      { content: [fauxToolCall("echo", { text: "a" }, "t1"), fauxToolCall("echo", { text: "b" }, "t2")] },
      "done",
    ]);
    await collect(
      agentLoop(
        [userMessage("go")],
        { messages: [], tools: [echoTool()] },
        {
          ...faux,
          audit: { sink, sessionId: "s" },
          beforeToolCall: (hook) => (hook.args.text === "b" ? { args: { text: "B" } } : undefined),
          afterToolCall: (hook) => (hook.toolCall.id === "t1" ? { details: { checked: true } } : undefined),
        },
      ),
    );
    const records = assembleAuditRecords(sink.events);
    expect(records.map((r) => [r.callId, r.intent?.turnId, r.intent?.requestedBy, r.end?.status])).toEqual([
      ["t1", "turn-1", "model", "completed"],
      ["t2", "turn-1", "model", "completed"],
    ]);
    const hooks = (id: string) =>
      records
        .find((r) => r.callId === id)
        ?.decisions.filter((d) => d.gate === "hook")
        .map((d) => [d.rules?.[0], d.verdict, d.changed]);
    expect(hooks("t1")).toEqual([
      ["beforeToolCall", "allow", undefined],
      ["afterToolCall", "changed", ["result.details"]],
    ]);
    expect(hooks("t2")).toEqual([
      ["beforeToolCall", "changed", ["text"]],
      ["afterToolCall", "allow", undefined],
    ]);
  });

  it("records a blocked call and an unknown tool as ended and failed", async () => {
    const sink = createMemoryAuditSink();
    const faux = createFauxModel([
      { content: [fauxToolCall("echo", { text: "rm" }, "b1"), fauxToolCall("nope", {}, "b2")] },
      "done",
    ]);
    await collect(
      agentLoop(
        [userMessage("go")],
        { messages: [], tools: [echoTool()] },
        { ...faux, audit: { sink }, beforeToolCall: () => ({ block: true, reason: "not today" }) },
      ),
    );
    const [blocked, unknown] = assembleAuditRecords(sink.events);
    expect(blocked?.decisions.at(-1)).toMatchObject({ gate: "hook", verdict: "deny", reason: "not today" });
    expect(blocked?.end).toMatchObject({ status: "failed", errorCode: "blocked" });
    expect(unknown?.end).toMatchObject({ status: "failed", errorCode: "tool_not_found" });
  });
});
