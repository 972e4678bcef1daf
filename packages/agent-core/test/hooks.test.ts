import { describe, expect, it } from "vitest";
import { createFauxModel, fauxToolCall } from "../src/faux-model.js";
import type { AfterToolCallHook, BeforeToolCallHook } from "../src/hooks.js";
import { agentLoop } from "../src/loop.js";
import { type ToolResultMessage, userMessage } from "../src/messages.js";
import { ToolError } from "../src/tool-error.js";
import { collect, echoTool } from "./support.js";

async function runWithHooks(
  calls: ReturnType<typeof fauxToolCall>[],
  hooks: { beforeToolCall?: BeforeToolCallHook; afterToolCall?: AfterToolCallHook },
  log: string[] = [],
) {
  const faux = createFauxModel([{ content: calls }, "final"]);
  const tools = [echoTool("echo", { log }), echoTool("stop", { log })];
  const { result, events } = await collect(
    agentLoop([userMessage("go")], { messages: [], tools }, { ...faux, ...hooks }),
  );
  const results = result.filter((m): m is ToolResultMessage => m.role === "toolResult");
  return { results, events, faux, log };
}

function textOf(result: ToolResultMessage | undefined): string {
  return (result?.content[0] as { text: string } | undefined)?.text ?? "";
}

describe("beforeToolCall", () => {
  it("blocks a call with the hook's reason; the tool does not run", async () => {
    const { results, log } = await runWithHooks([fauxToolCall("echo", { text: "rm" })], {
      beforeToolCall: () => ({ block: true, reason: "Blocked: destructive command. Ask the user first." }),
    });
    expect(log).toEqual([]);
    expect(results[0]).toMatchObject({ isError: true });
    expect(textOf(results[0])).toBe("Blocked: destructive command. Ask the user first.");
  });

  it("sees validated arguments and the call, and may replace the arguments", async () => {
    const seen: unknown[] = [];
    const { results, log } = await runWithHooks([fauxToolCall("echo", { text: "a", count: "2" }, "c1")], {
      beforeToolCall: ({ args, toolCall, tool }) => {
        seen.push(args, toolCall.id, tool.name);
        return { args: { text: "rewritten", count: "7" } };
      },
    });
    expect(seen).toEqual([{ text: "a", count: 2 }, "c1", "echo"]);
    expect(log).toEqual(["start:rewritten", "end:rewritten"]);
    expect(results[0]).toMatchObject({ isError: false, details: { args: { text: "rewritten", count: 7 } } });
  });

  it("validates replaced arguments again and does not run the tool when they are invalid", async () => {
    const { results, log } = await runWithHooks([fauxToolCall("echo", { text: "a" })], {
      beforeToolCall: () => ({ args: { text: 5 as unknown as string, count: "lots" } }),
    });
    expect(log).toEqual([]);
    expect(textOf(results[0])).toContain("Not run: arguments set by the beforeToolCall hook are invalid.");
    expect(textOf(results[0])).toContain('- count: expected integer, received string "lots".');
    expect(results[0]).toMatchObject({ isError: true, errorCode: "invalid_arguments" });
  });

  it("turns a throwing hook into an error result, and the run goes on", async () => {
    const { results, log, faux } = await runWithHooks(
      [fauxToolCall("echo", { text: "a" }), fauxToolCall("echo", { text: "b" })],
      {
        beforeToolCall: ({ args }) => {
          if (args.text === "a") throw new Error("policy service down");
        },
      },
    );
    expect(log).toEqual(["start:b", "end:b"]);
    expect(textOf(results[0])).toBe(
      "Not run: the beforeToolCall hook failed (policy service down). The tool did not run.",
    );
    expect(results[1]?.isError).toBe(false);
    expect(faux.remaining).toBe(0);
  });

  it("terminate from the hook ends the run when it covers the whole batch", async () => {
    const { faux, results } = await runWithHooks([fauxToolCall("echo", { text: "a" })], {
      beforeToolCall: () => ({ terminate: true }),
    });
    expect(results[0]?.isError).toBe(false);
    expect(faux.remaining).toBe(1);
  });
});

describe("afterToolCall", () => {
  it("overrides only the fields it returns", async () => {
    const { results, events } = await runWithHooks([fauxToolCall("echo", { text: "a" })], {
      afterToolCall: ({ result }) => ({
        content: [{ type: "text", text: `patched ${textOf(result as never)}` }],
      }),
    });
    expect(results[0]).toMatchObject({
      isError: false,
      content: [{ type: "text", text: "patched echo:a" }],
      details: { args: { text: "a" } },
    });
    const end = events.find((e) => e.type === "tool_execution_end");
    expect(end).toMatchObject({ result: { content: [{ text: "patched echo:a" }] } });
  });

  it("may flip isError and set details", async () => {
    const { results } = await runWithHooks([fauxToolCall("echo", { text: "a" })], {
      afterToolCall: () => ({ isError: true, details: { flagged: true } }),
    });
    expect(results[0]).toMatchObject({
      isError: true,
      errorCode: "blocked",
      details: { flagged: true },
      content: [{ text: "echo:a" }],
    });
  });

  it("keeps the error code in step with isError: set, replaced, or dropped on success", async () => {
    const coded = await runWithHooks([fauxToolCall("echo", { text: "a" })], {
      afterToolCall: () => ({ isError: true, errorCode: "policy_denied" }),
    });
    expect(coded.results[0]).toMatchObject({ isError: true, errorCode: "policy_denied" });
    const end = coded.events.find((e) => e.type === "tool_execution_end");
    expect(end).toMatchObject({
      isError: true,
      errorCode: "policy_denied",
      result: { errorCode: "policy_denied" },
    });
    const failing = echoTool("echo", {
      wait: async () => {
        throw new ToolError("not_found", "gone");
      },
    });
    const faux = createFauxModel([{ content: [fauxToolCall("echo", { text: "a" })] }, "final"]);
    const healed = await collect(
      agentLoop(
        [userMessage("go")],
        { messages: [], tools: [failing] },
        {
          ...faux,
          afterToolCall: ({ result }) => {
            expect(result).toMatchObject({ isError: true, errorCode: "not_found" });
            return { isError: false, content: [{ type: "text", text: "recovered" }] };
          },
        },
      ),
    );
    const healedResult = healed.result.find((m): m is ToolResultMessage => m.role === "toolResult");
    expect(healedResult).toMatchObject({ isError: false, content: [{ text: "recovered" }] });
    expect(healedResult).not.toHaveProperty("errorCode");
  });

  it("turns a throwing hook into an error result that says the tool ran", async () => {
    const { results, log } = await runWithHooks([fauxToolCall("echo", { text: "a" })], {
      afterToolCall: () => {
        throw new Error("audit log full");
      },
    });
    expect(log).toEqual(["start:a", "end:a"]);
    expect(results[0]?.isError).toBe(true);
    expect(textOf(results[0])).toContain("The tool ran, but the afterToolCall hook failed (audit log full)");
  });
});
