import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { invokeTool, type ToolCallHookContext, type ToolOutcome } from "@tackle/agent-core";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import type { ExtensionContext } from "../src/context.js";
import { defineExtension, type ToolCallEvent, type ToolResultEvent } from "../src/extension.js";
import { isToolCallFor, isToolResultFor } from "../src/narrow.js";
import { ExtensionRunner } from "../src/runner.js";
import { StaleContextError } from "../src/stale-context.js";
import { createTestContext, recordingLogger } from "./support/context.js";
import { echoDefinition } from "./support/tools.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tackle-runner-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function newRunner(extra: Partial<ConstructorParameters<typeof ExtensionRunner>[0]> = {}) {
  const logger = recordingLogger();
  const runner = new ExtensionRunner({
    context: () => createTestContext(dir, { logger }),
    builtinTools: [echoDefinition()],
    cwd: dir,
    logger,
    ...extra,
  });
  return { runner, logger };
}

/** The hook context the loop would pass for a call of the first active tool. */
function hookFor(runner: ExtensionRunner, args: Record<string, unknown>, name = "echo"): ToolCallHookContext {
  const tool = runner.tools().find((t) => t.name === name)!;
  return {
    toolCall: { type: "toolCall", id: "c1", name, arguments: args },
    tool,
    args,
    assistantMessage: { role: "assistant", content: [], stopReason: "toolUse", timestamp: 0 },
    context: { messages: [], tools: [tool] },
  };
}

function outcome(text: string): ToolOutcome {
  return { content: [{ type: "text", text }], details: { n: 1 }, isError: false };
}

describe("tool_call handlers", () => {
  it("run in load order, each seeing the input rewritten by the ones before", async () => {
    const { runner } = newRunner();
    const seen: string[] = [];
    const make = (name: string) =>
      defineExtension({
        name,
        setup(api) {
          api.on("tool_call", (event) => {
            seen.push(`${name}:${event.input.text}`);
            return { input: { ...event.input, text: `${event.input.text}+${name}` } };
          });
        },
      });
    await runner.load([make("first"), make("second"), make("third")]);
    const decision = await runner.beforeToolCall(hookFor(runner, { text: "x" }), undefined);
    expect(seen).toEqual(["first:x", "second:x+first", "third:x+first+second"]);
    expect(decision).toEqual({ args: { text: "x+first+second+third" } });
  });

  it("stop at the first block and pass its reason on", async () => {
    const { runner } = newRunner();
    const seen: string[] = [];
    await runner.load([
      defineExtension({
        name: "gate",
        setup(api) {
          api.on("tool_call", () => ({ block: true, reason: "Blocked: not today. Ask the user." }));
        },
      }),
      defineExtension({
        name: "later",
        setup(api) {
          api.on("tool_call", () => void seen.push("later"));
        },
      }),
    ]);
    const decision = await runner.beforeToolCall(hookFor(runner, { text: "x" }), undefined);
    expect(decision).toEqual({ block: true, reason: "Blocked: not today. Ask the user." });
    expect(seen).toEqual([]);
  });

  it("fail closed: a throwing handler blocks the call and is reported", async () => {
    const { runner, logger } = newRunner();
    await runner.load([
      defineExtension({
        name: "broken-gate",
        setup(api) {
          api.on("tool_call", () => {
            throw new Error("rules file missing");
          });
        },
      }),
    ]);
    const decision = await runner.beforeToolCall(hookFor(runner, { text: "x" }), undefined);
    expect(decision?.block).toBe(true);
    expect(decision?.reason).toContain(
      "the broken-gate extension failed while checking this call (rules file missing)",
    );
    expect(runner.errors).toMatchObject([{ extension: "broken-gate", phase: "tool_call" }]);
    expect(logger.lines.some((l) => l.level === "error" && l.message.includes("rules file missing"))).toBe(
      true,
    );
  });

  it("get a context built for the call", async () => {
    const { runner } = newRunner();
    const seen: unknown[] = [];
    await runner.load([
      defineExtension({
        name: "ctx",
        setup(api) {
          api.on("tool_call", (_event, ctx) => void seen.push(ctx.cwd, ctx.session.id, ctx.signal));
        },
      }),
    ]);
    const signal = new AbortController().signal;
    await runner.beforeToolCall(hookFor(runner, { text: "x" }), signal);
    expect(seen).toEqual([dir, "test-session", signal]);
  });
});

describe("tool_result handlers", () => {
  it("are middleware: each sees the latest result and may patch content, details or isError", async () => {
    const { runner } = newRunner();
    const seen: unknown[] = [];
    await runner.load([
      defineExtension({
        name: "redact",
        setup(api) {
          api.on("tool_result", (event) => ({
            content: [
              {
                type: "text",
                text: event.content
                  .map((c) => (c.type === "text" ? c.text : ""))
                  .join("")
                  .replace("secret", "***"),
              },
            ],
          }));
        },
      }),
      defineExtension({
        name: "tag",
        setup(api) {
          api.on("tool_result", (event) => {
            seen.push(event.content);
            return { details: { ...(event.details as object), tagged: true }, isError: true };
          });
        },
      }),
    ]);
    const patch = await runner.afterToolCall(
      { ...hookFor(runner, { text: "x" }), result: outcome("the secret") },
      undefined,
    );
    expect(seen).toEqual([[{ type: "text", text: "the ***" }]]);
    expect(patch).toEqual({
      content: [{ type: "text", text: "the ***" }],
      details: { n: 1, tagged: true },
      isError: true,
      errorCode: "blocked",
    });
  });

  it("see the error code and may set it; a success carries none", async () => {
    const { runner } = newRunner();
    const seen: unknown[] = [];
    await runner.load([
      defineExtension({
        name: "classify",
        setup(api) {
          api.on("tool_result", (event) => {
            seen.push(event.errorCode);
            return { errorCode: "policy_denied" };
          });
        },
      }),
    ]);
    const failed = { ...outcome("denied"), isError: true, errorCode: "not_found" as const };
    const patch = await runner.afterToolCall(
      { ...hookFor(runner, { text: "x" }), result: failed },
      undefined,
    );
    expect(seen).toEqual(["not_found"]);
    expect(patch).toMatchObject({ isError: true, errorCode: "policy_denied" });
    const ok = await runner.afterToolCall(
      { ...hookFor(runner, { text: "x" }), result: outcome("fine") },
      undefined,
    );
    expect(ok).not.toHaveProperty("errorCode");
  });

  it("fail open: a throwing handler is reported and skipped, later ones still run", async () => {
    const { runner } = newRunner();
    await runner.load([
      defineExtension({
        name: "broken",
        setup(api) {
          api.on("tool_result", () => {
            throw new Error("formatter crashed");
          });
        },
      }),
      defineExtension({
        name: "suffix",
        setup(api) {
          api.on("tool_result", () => ({ content: [{ type: "text", text: "patched" }] }));
        },
      }),
    ]);
    const patch = await runner.afterToolCall(
      { ...hookFor(runner, { text: "x" }), result: outcome("raw") },
      undefined,
    );
    expect(patch?.content).toEqual([{ type: "text", text: "patched" }]);
    expect(runner.errors).toMatchObject([{ extension: "broken", phase: "tool_result" }]);
  });

  it("leave the result alone when no handler patches it", async () => {
    const { runner } = newRunner();
    await runner.load([{ name: "quiet", setup: (api) => api.on("tool_result", () => undefined) }]);
    expect(
      await runner.afterToolCall({ ...hookFor(runner, { text: "x" }), result: outcome("raw") }, undefined),
    ).toBe(undefined);
  });
});

describe("agent event observers", () => {
  it("run in load order; a throwing observer is reported and the next still runs", async () => {
    const { runner } = newRunner();
    const seen: string[] = [];
    await runner.load([
      { name: "a", setup: (api) => api.on("turn_start", () => void seen.push("a")) },
      {
        name: "b",
        setup: (api) =>
          api.on("turn_start", () => {
            throw new Error("observer broke");
          }),
      },
      {
        name: "c",
        setup: (api) => {
          api.on("turn_start", () => void seen.push("c"));
          api.on("agent_end", (event) => void seen.push(`end:${event.messages.length}`));
        },
      },
    ]);
    await runner.emit({ type: "turn_start" });
    await runner.emit({ type: "agent_end", messages: [] });
    expect(seen).toEqual(["a", "c", "end:0"]);
    expect(runner.errors).toMatchObject([{ extension: "b", phase: "event" }]);
  });
});

describe("tool name conflicts", () => {
  it("lets an extension override a built-in tool", async () => {
    const { runner, logger } = newRunner();
    await runner.load([
      { name: "mine", setup: (api) => api.registerTool(echoDefinition("echo", "extension")) },
    ]);
    const tools = runner.tools();
    expect(tools.map((t) => t.name)).toEqual(["echo"]);
    const result = await invokeTool(tools[0]!, { text: "hi" });
    expect(result.details).toMatchObject({ tag: "extension" });
    expect(logger.lines.some((l) => l.message === "Extension mine overrides built-in tool echo.")).toBe(true);
  });

  it("between extensions, the first registration wins and the later one is dropped with a warning", async () => {
    const { runner } = newRunner();
    await runner.load([
      { name: "one", setup: (api) => api.registerTool(echoDefinition("shout", "one")) },
      { name: "two", setup: (api) => api.registerTool(echoDefinition("shout", "two")) },
    ]);
    const shout = runner.tools().find((t) => t.name === "shout")!;
    expect((await invokeTool(shout, { text: "a" })).details).toMatchObject({ tag: "one" });
    expect(runner.warnings).toEqual([
      "Tool shout from extension two ignored: extension one registered it first.",
    ]);
    expect(runner.toolDefinitions().map((t) => t.name)).toEqual(["echo", "shout"]);
  });

  it("applies the same rule to commands, and runs commands with a context", async () => {
    const { runner } = newRunner();
    const ran: string[] = [];
    await runner.load([
      {
        name: "one",
        setup: (api) =>
          api.registerCommand("hello", {
            description: "Says hello",
            run: (args, ctx) => void ran.push(`${args}@${ctx.cwd}`),
          }),
      },
      {
        name: "two",
        setup: (api) =>
          api.registerCommand("hello", { description: "Other", run: () => void ran.push("two") }),
      },
      {
        name: "three",
        setup: (api) =>
          api.registerCommand("fail", {
            description: "Fails",
            run: () => {
              throw new Error("nope");
            },
          }),
      },
    ]);
    expect(runner.commands()).toEqual([
      { name: "hello", description: "Says hello", extension: "one" },
      { name: "fail", description: "Fails", extension: "three" },
    ]);
    expect(await runner.runCommand("hello", "world")).toEqual({ ok: true });
    expect(ran).toEqual([`world@${dir}`]);
    expect(await runner.runCommand("fail")).toEqual({ ok: false, error: "three (command): nope" });
    expect(await runner.runCommand("missing")).toEqual({
      ok: false,
      error: "Unknown command missing. Commands: hello, fail.",
    });
    expect(runner.warnings).toContain(
      "Command hello from extension two ignored: extension one registered it first.",
    );
  });
});

describe("unload and reload", () => {
  it("makes kept contexts, old tools and old apis stale", async () => {
    const { runner } = newRunner();
    let kept: ExtensionContext | undefined;
    let keptApi: Parameters<Parameters<typeof defineExtension>[0]["setup"]>[0] | undefined;
    await runner.load([
      defineExtension({
        name: "keeper",
        setup(api) {
          keptApi ??= api;
          api.on("tool_call", (_event, ctx) => {
            kept = ctx;
          });
        },
      }),
    ]);
    const oldTools = runner.tools();
    await runner.beforeToolCall(hookFor(runner, { text: "x" }), undefined);
    expect(kept?.cwd).toBe(dir);
    const result = await runner.reload();
    expect(result).toEqual({ loaded: ["keeper"], errors: [] });
    expect(() => kept?.cwd).toThrow(StaleContextError);
    expect(() => keptApi?.registerTool(echoDefinition("late"))).toThrow(StaleContextError);
    const stale = await invokeTool(oldTools[0]!, { text: "x" });
    expect(stale).toMatchObject({ isError: true, errorCode: "stale_context" });
    expect((await invokeTool(runner.tools()[0]!, { text: "x" })).isError).toBe(false);
  });

  it("unload drops every extension, handler, tool and command", async () => {
    const { runner } = newRunner();
    await runner.load([
      {
        name: "full",
        setup(api) {
          api.registerTool(echoDefinition("extra"));
          api.registerCommand("c", { description: "c", run() {} });
          api.on("tool_call", () => ({ block: true }));
        },
      },
    ]);
    runner.unload();
    expect(runner.extensions).toEqual([]);
    expect(runner.tools().map((t) => t.name)).toEqual(["echo"]);
    expect(runner.commands()).toEqual([]);
    expect(await runner.beforeToolCall(hookFor(runner, { text: "x" }), undefined)).toBeUndefined();
  });
});

describe("narrowing helpers", () => {
  it("narrow a tool's input and details by its definition (type-level and at run time)", () => {
    const echo = echoDefinition();
    const call: ToolCallEvent = {
      type: "tool_call",
      toolCallId: "1",
      toolName: "echo",
      input: { text: "a" },
    };
    const result: ToolResultEvent = {
      ...call,
      type: "tool_result",
      content: [],
      details: {},
      isError: false,
    };
    if (isToolCallFor(call, echo)) {
      expectTypeOf(call.input.text).toEqualTypeOf<string>();
      expectTypeOf(call.input.times).toEqualTypeOf<number | undefined>();
    }
    if (isToolResultFor(result, echo)) {
      expectTypeOf(result.details).toEqualTypeOf<{ tag: string; environment: string; times: number }>();
    }
    expect(isToolCallFor(call, echo)).toBe(true);
    expect(isToolCallFor({ ...call, toolName: "other" }, echo)).toBe(false);
  });
});
