import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import { type AgentTool, invokeTool } from "@tackle/agent-core";
import { OperationError } from "@tackle/operations";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { contextForCall, EXTENSION_CONTEXT_KEYS } from "../src/call-context.js";
import type { ExtensionContext, ToolSession } from "../src/context.js";
import { defineTool } from "../src/define-tool.js";
import { guardContext } from "../src/stale-context.js";
import { createToolDefinitionFromAgentTool, wrapToolDefinition } from "../src/wrap-tool-definition.js";
import { createTestContext } from "./support/context.js";

const catTool = defineTool({
  name: "cat",
  label: "Cat",
  description: "Reads a file of the context's environment.",
  annotations: { readOnlyHint: true },
  parameters: Type.Object({ path: Type.String() }),
  async execute(_id, { path: file }, _signal, _onUpdate, ctx) {
    const resolved = await ctx.workspace.resolve(file, "read");
    const text = new TextDecoder().decode(await ctx.operations.readFile(resolved.absolute));
    return {
      content: [{ type: "text", text }],
      details: { environment: ctx.operations.id, session: ctx.session.id },
    };
  },
});

let dirA: string;
let dirB: string;
beforeEach(async () => {
  dirA = await mkdtemp(path.join(tmpdir(), "tackle-ext-a-"));
  dirB = await mkdtemp(path.join(tmpdir(), "tackle-ext-b-"));
  await writeFile(path.join(dirA, "note.txt"), "from A");
  await writeFile(path.join(dirB, "note.txt"), "from B");
});
afterEach(async () => {
  await rm(dirA, { recursive: true, force: true });
  await rm(dirB, { recursive: true, force: true });
});

describe("wrapToolDefinition", () => {
  it("builds the context at call time, so swapping it swaps the environment of the same tool", async () => {
    let current = createTestContext(dirA, { id: "env-a", sessionId: "s1" });
    const tool = wrapToolDefinition(catTool, () => current);
    const first = await invokeTool(tool, { path: "note.txt" });
    current = createTestContext(dirB, { id: "env-b", sessionId: "s2" });
    const second = await invokeTool(tool, { path: "note.txt" });
    expect(first.content).toEqual([{ type: "text", text: "from A" }]);
    expect(first.details).toEqual({ environment: "env-a", session: "s1" });
    expect(second.content).toEqual([{ type: "text", text: "from B" }]);
    expect(second.details).toEqual({ environment: "env-b", session: "s2" });
  });

  it("hands the factory the call and puts the call's signal in ctx.signal", async () => {
    const seen: unknown[] = [];
    const probe = defineTool({
      name: "probe",
      label: "Probe",
      description: "probe",
      annotations: {},
      parameters: Type.Object({}),
      async execute(_id, _params, signal, _onUpdate, ctx) {
        seen.push(ctx.signal === signal, ctx.cwd);
        return { content: [], details: {} };
      },
    });
    const calls: unknown[] = [];
    const controller = new AbortController();
    const tool = wrapToolDefinition(probe, async (call) => {
      calls.push(call);
      return createTestContext(dirA);
    });
    await invokeTool(tool, {}, { signal: controller.signal, toolCallId: "c1" });
    expect(calls).toEqual([{ toolCallId: "c1", toolName: "probe", signal: controller.signal }]);
    expect(seen).toEqual([true, dirA]);
  });

  it("turns a failing context factory into an error outcome", async () => {
    const tool = wrapToolDefinition(catTool, () => {
      throw new Error("no environment");
    });
    const outcome = await invokeTool(tool, { path: "note.txt" });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toEqual([
      {
        type: "text",
        text: "Not run: cat could not get its environment (no environment). Tell the user; retrying will not help until the environment is back.",
      },
    ]);
  });

  it("keeps the code of an environment failure while resolving a path (no 'check the arguments')", async () => {
    const base = createTestContext(dirA);
    const lost = new OperationError("connection_lost", "ssh: connection closed", {
      path: path.join(dirA, "note.txt"),
    });
    const context: ToolSession = {
      ...base,
      workspace: {
        ...base.workspace,
        resolve: async () => {
          throw lost;
        },
      },
    };
    const outcome = await invokeTool(
      wrapToolDefinition(catTool, () => context),
      { path: "note.txt" },
    );
    expect(outcome).toMatchObject({ isError: true, errorCode: "connection_lost" });
    const text = (outcome.content[0] as { text: string }).text;
    expect(text).toContain("The environment is unreachable");
    expect(text).toContain("note.txt");
    expect(text).not.toMatch(/check the arguments/i);
  });

  it("keeps the code of an environment failure from the context factory", async () => {
    const tool = wrapToolDefinition(catTool, () => {
      throw new OperationError("connection_lost", "ssh: handshake failed");
    });
    const outcome = await invokeTool(tool, { path: "note.txt" });
    expect(outcome).toMatchObject({ isError: true, errorCode: "connection_lost" });
    expect((outcome.content[0] as { text: string }).text).toContain("unreachable");
  });

  it("fails a call whose context went stale, with code stale_context", async () => {
    let live = true;
    const guarded = guardContext(createTestContext(dirA), () => live, "the context of session s1");
    const tool = wrapToolDefinition(catTool, () => guarded);
    expect((await invokeTool(tool, { path: "note.txt" })).isError).toBe(false);
    live = false;
    const outcome = await invokeTool(tool, { path: "note.txt" });
    expect(outcome.errorCode).toBe("stale_context");
    expect(outcome.content[0]).toMatchObject({ text: expect.stringContaining("the context of session s1") });
  });

  it("keeps name, schema, prepareArguments, executionMode and providerTool", () => {
    const prepareArguments = (raw: unknown) => raw;
    const providerTool = {
      id: "acme.cat_20260101" as const,
      args: { lines: 10 },
      toResult: () => ({ ok: true }),
    };
    const tool = wrapToolDefinition(
      { ...catTool, prepareArguments, executionMode: "sequential", providerTool },
      () => createTestContext(dirA),
    );
    expect(tool).toMatchObject({
      name: "cat",
      label: "Cat",
      parameters: catTool.parameters,
      executionMode: "sequential",
    });
    expect(tool.prepareArguments).toBe(prepareArguments);
    expect(tool.providerTool).toBe(providerTool);
    const plain = wrapToolDefinition(catTool, () => createTestContext(dirA));
    expect("providerTool" in plain).toBe(false);
  });
});

describe("createToolDefinitionFromAgentTool", () => {
  it("gives back the original definition of a wrapped tool", () => {
    const tool = wrapToolDefinition(catTool, () => createTestContext(dirA));
    expect(createToolDefinitionFromAgentTool(tool)).toBe(catTool);
  });

  it("makes a plain AgentTool a definition that ignores ctx and can be wrapped again", async () => {
    const plain: AgentTool<
      ReturnType<typeof Type.Object<{ n: ReturnType<typeof Type.Integer> }>>,
      { n: number }
    > = {
      name: "double",
      label: "Double",
      description: "Doubles n.",
      parameters: Type.Object({ n: Type.Integer() }),
      async execute(_id, { n }) {
        return { content: [{ type: "text", text: String(n * 2) }], details: { n } };
      },
    };
    const definition = createToolDefinitionFromAgentTool(plain);
    expect(definition.annotations).toEqual({});
    expect(
      createToolDefinitionFromAgentTool({ ...plain, providerTool: { id: "acme.double" } }).providerTool,
    ).toEqual({ id: "acme.double" });
    const rewrapped = wrapToolDefinition(definition, () => createTestContext(dirA));
    expect((await invokeTool(rewrapped, { n: "21" } as unknown)).content).toEqual([
      { type: "text", text: "42" },
    ]);
  });
});

describe("defineTool", () => {
  it("infers params from the TypeBox schema and details from execute (type-level)", () => {
    const tool = defineTool({
      name: "t",
      label: "T",
      description: "d",
      annotations: {},
      parameters: Type.Object({ name: Type.String(), count: Type.Optional(Type.Number()) }),
      async execute(_id, params, _signal, _onUpdate, ctx) {
        expectTypeOf(params).toEqualTypeOf<{ name: string; count?: number }>();
        expectTypeOf(ctx).toEqualTypeOf<ExtensionContext>();
        return { content: [], details: { length: params.name.length } };
      },
    });
    expectTypeOf(tool.execute).returns.resolves.toHaveProperty("details").toEqualTypeOf<{ length: number }>();
    // @ts-expect-error: params are checked against the schema
    tool.execute("id", { name: 1 }, undefined, undefined, {} as ExtensionContext);
    expect(tool.name).toBe("t");
  });
});

describe("the context a tool receives", () => {
  it("can be spread into a new context with every field (routing a call elsewhere)", async () => {
    const seen: unknown[] = [];
    const spreader = defineTool({
      name: "spread",
      label: "Spread",
      description: "spread",
      annotations: {},
      parameters: Type.Object({}),
      async execute(_id, _params, signal, _onUpdate, ctx) {
        const copy = { ...ctx, cwd: "/elsewhere" };
        seen.push(copy.cwd, copy.session.id, copy.signal === signal, typeof copy.workspace.resolve);
        return { content: [], details: {} };
      },
    });
    const tool = wrapToolDefinition(spreader, () => createTestContext(dirA, { sessionId: "s9" }));
    await invokeTool(tool, {}, { signal: new AbortController().signal });
    expect(seen).toEqual(["/elsewhere", "s9", true, "function"]);
  });
});

describe("contextForCall", () => {
  const call = { toolCallId: "c1", toolName: "t", signal: undefined };

  it("makes a context with every field EXTENSION_CONTEXT_KEYS lists that the session has, and no other", () => {
    const session = createTestContext(dirA);
    const ctx = contextForCall(session, call);
    const present = EXTENSION_CONTEXT_KEYS.filter((key) => key in ctx);
    expect(Object.keys(ctx).sort()).toEqual([...present].sort());
    expect(present).toEqual(expect.arrayContaining(["cwd", "operations", "state", "signal", "call"]));
  });

  it("refuses something that is not a session with a message naming what is missing, not a TypeError from inside", () => {
    const { state: _state, ...noState } = createTestContext(dirA);
    const attempts: [unknown, string][] = [
      [noState, "an object without `state`"],
      [{ ...noState, state: {} }, "an object whose `state` is not a SessionState"],
      [undefined, "got undefined"],
    ];
    for (const [session, says] of attempts) {
      expect(() => contextForCall(session as ToolSession, call)).toThrowError(
        expect.objectContaining({ name: "TypeError", message: expect.stringContaining(says) }),
      );
      expect(() => contextForCall(session as ToolSession, call)).toThrowError(/new SessionState\(\)/);
    }
  });
});
