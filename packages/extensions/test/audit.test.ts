import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import { assembleAuditRecords, createMemoryAuditSink, invokeTool } from "@tackle/agent-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineTool } from "../src/define-tool.js";
import { defineExtension } from "../src/extension.js";
import { ExtensionRunner } from "../src/runner.js";
import { wrapToolDefinition } from "../src/wrap-tool-definition.js";
import { createTestContext } from "./support/context.js";
import { echoDefinition } from "./support/tools.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tackle-ext-audit-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const resolver = defineTool({
  name: "where",
  label: "where",
  description: "Resolves a path.",
  annotations: {},
  parameters: Type.Object({ path: Type.String() }),
  async execute(_id, { path: input }, _signal, _onUpdate, ctx) {
    const resolved = await ctx.workspace.resolve(input, "write");
    return { content: [{ type: "text", text: resolved.real }], details: {} };
  },
});

describe("audit through the extension context", () => {
  it("records each workspace decision of a call: the real path and root, or the refusal", async () => {
    const sink = createMemoryAuditSink();
    const tool = wrapToolDefinition(resolver, () => ({ ...createTestContext(dir), audit: sink }));
    await invokeTool(tool, { path: "a.txt" }, { toolCallId: "w1" });
    await invokeTool(tool, { path: "/etc/passwd" }, { toolCallId: "w2" });
    const [inside, outside] = assembleAuditRecords(sink.events);
    const workspaceGate = (record: typeof inside) => record?.decisions.filter((d) => d.gate === "workspace");
    expect(workspaceGate(inside)?.[0]).toMatchObject({
      gate: "workspace",
      verdict: "allow",
      rules: ["inside-root"],
      path: { input: "a.txt", access: "write", real: path.join(dir, "a.txt"), inside: true },
    });
    expect(workspaceGate(outside)?.[0]).toMatchObject({
      gate: "workspace",
      verdict: "deny",
      code: "outside_workspace",
      path: { input: "/etc/passwd", access: "write", inside: false },
    });
  });

  it("gives a call one audited workspace, also through a copy of its context", async () => {
    const sink = createMemoryAuditSink();
    const twice = defineTool({
      name: "twice",
      label: "twice",
      description: "Resolves a path through the context and a copy of it.",
      annotations: {},
      parameters: Type.Object({}),
      async execute(_id, _params, _signal, _onUpdate, ctx) {
        const first = ctx.workspace;
        const same = first === ctx.workspace;
        await ctx.workspace.resolve("a.txt", "read");
        await { ...ctx }.workspace.resolve("b.txt", "read");
        return { content: [{ type: "text", text: String(same) }], details: {} };
      },
    });
    const tool = wrapToolDefinition(twice, () => ({ ...createTestContext(dir), audit: sink }));
    const outcome = await invokeTool(tool, {}, { toolCallId: "t1" });
    expect(outcome.content).toEqual([{ type: "text", text: "true" }]);
    const [record] = assembleAuditRecords(sink.events);
    expect(record?.decisions.filter((d) => d.gate === "workspace").map((d) => d.path?.input)).toEqual([
      "a.txt",
      "b.txt",
    ]);
  });

  it("records the environment of every call: the adapter's id and its own description, or the kind of its id", async () => {
    const sink = createMemoryAuditSink();
    const base = createTestContext(dir);
    const described = {
      ...base.operations,
      id: "ssh://me@devbox:2222",
      environment: { kind: "ssh", host: "devbox", port: 2222, user: "me" },
    };
    const bare = { ...base.operations, id: "docker://dev" };
    const { environment: _none, ...undescribed } = bare as typeof bare & { environment?: unknown };
    for (const [id, operations] of [
      ["e1", described],
      ["e2", undescribed],
    ] as const) {
      const tool = wrapToolDefinition(resolver, () => ({ ...base, operations, audit: sink }));
      await invokeTool(tool, { path: "a.txt" }, { toolCallId: id });
    }
    const [first, second] = assembleAuditRecords(sink.events).map((record) =>
      record.decisions.filter((d) => d.gate === "environment"),
    );
    expect(first).toEqual([
      expect.objectContaining({
        verdict: "note",
        environment: { id: "ssh://me@devbox:2222", kind: "ssh", host: "devbox", port: 2222, user: "me" },
      }),
    ]);
    expect(second?.[0]?.environment).toEqual({ id: "docker://dev", kind: "docker" });
  });

  it("names the extension handler that rewrote, patched or blocked a call", async () => {
    const sink = createMemoryAuditSink();
    const runner = new ExtensionRunner({
      context: () => ({ ...createTestContext(dir), audit: sink }),
      builtinTools: [echoDefinition()],
      cwd: dir,
    });
    await runner.load([
      defineExtension({
        name: "shout",
        setup(api) {
          api.on("tool_call", (event) => ({
            input: { ...event.input, text: String(event.input.text).toUpperCase() },
          }));
          api.on("tool_result", () => ({ details: { shouted: true } }));
        },
      }),
      defineExtension({
        name: "guard",
        setup(api) {
          api.on("tool_call", (event) =>
            event.input.text === "RM" ? { block: true, reason: "no rm" } : undefined,
          );
        },
      }),
    ]);
    const tool = runner.tools().find((t) => t.name === "echo")!;
    const hook = (id: string, text: string) => ({
      toolCall: { type: "toolCall" as const, id, name: "echo", arguments: { text } },
      tool,
      args: { text },
      assistantMessage: {
        role: "assistant" as const,
        content: [],
        stopReason: "toolUse" as const,
        timestamp: 0,
      },
      context: { messages: [], tools: [tool] },
    });
    await runner.beforeToolCall(hook("h1", "hi"), undefined);
    await runner.afterToolCall(
      { ...hook("h1", "HI"), result: { content: [], details: {}, isError: false } },
      undefined,
    );
    await runner.beforeToolCall(hook("h2", "rm"), undefined);
    const records = assembleAuditRecords(sink.events);
    expect(records[0]?.decisions.map((d) => [d.rules?.[0], d.verdict, d.changed])).toEqual([
      ["shout", "changed", ["text"]],
      ["shout", "changed", ["result.details"]],
    ]);
    expect(records[1]?.decisions.map((d) => [d.rules?.[0], d.verdict, d.reason])).toEqual([
      ["shout", "changed", undefined],
      ["guard", "deny", "no rm"],
    ]);
  });
});
