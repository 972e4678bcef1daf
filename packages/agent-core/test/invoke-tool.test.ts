import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { invokeTool } from "../src/invoke-tool.js";
import type { AgentTool } from "../src/tool.js";
import { ToolError } from "../src/tool-error.js";

const readParams = Type.Object({
  path: Type.String({ description: "File to read" }),
  offset: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  raw: Type.Optional(Type.Boolean()),
});

/** A tool that echoes the arguments it was finally called with. */
function echoTool<T extends typeof readParams>(
  parameters: T = readParams as T,
): AgentTool<T, { args: unknown }> {
  return {
    name: "read",
    label: "Read",
    description: "echo",
    parameters,
    async execute(_id, params) {
      return { content: [{ type: "text", text: JSON.stringify(params) }], details: { args: params } };
    },
  };
}

const editParams = Type.Object({
  path: Type.String(),
  edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() }), { minItems: 1 }),
  mode: Type.Optional(Type.Union([Type.Literal("replace"), Type.Literal("append")])),
});

/** Arguments as a model sends them: typed `unknown`, so invokeTool checks them at run time only. */
const raw = (args: unknown): unknown => args;

function detailsOf(outcome: { details: unknown }): unknown {
  return (outcome.details as { args: unknown }).args;
}

describe("invokeTool: lenient normalisation", () => {
  it("coerces numeric and boolean strings where the schema wants numbers and booleans", async () => {
    const outcome = await invokeTool(
      echoTool(),
      raw({ path: "a.ts", offset: "10", limit: " 20 ", raw: "True" }),
    );
    expect(outcome.isError).toBe(false);
    expect(detailsOf(outcome)).toEqual({ path: "a.ts", offset: 10, limit: 20, raw: true });
  });

  it("drops unknown properties and null optional fields", async () => {
    const outcome = await invokeTool(
      echoTool(),
      raw({
        path: "a.ts",
        offset: null,
        limit: null,
        explanation: "why",
      }),
    );
    expect(outcome.isError).toBe(false);
    expect(detailsOf(outcome)).toEqual({ path: "a.ts" });
  });

  it("parses arguments sent as a JSON string and nested arrays sent as JSON text", async () => {
    const tool = { ...echoTool(), parameters: editParams } as unknown as AgentTool;
    const raw = JSON.stringify({
      path: "a.ts",
      edits: JSON.stringify([{ oldText: "a", newText: "b", why: 1 }]),
    });
    const outcome = await invokeTool(tool, raw);
    expect(outcome.isError).toBe(false);
    expect(detailsOf(outcome)).toEqual({ path: "a.ts", edits: [{ oldText: "a", newText: "b" }] });
  });

  it("wraps a single item where a list is wanted and stringifies numbers where text is wanted", async () => {
    const tool = { ...echoTool(), parameters: editParams } as unknown as AgentTool;
    const outcome = await invokeTool(tool, { path: 42, edits: { oldText: 1, newText: "x" } });
    expect(outcome.isError).toBe(false);
    expect(detailsOf(outcome)).toEqual({ path: "42", edits: [{ oldText: "1", newText: "x" }] });
  });

  it("treats missing arguments of a tool without required fields as an empty object", async () => {
    const tool = { ...echoTool(), parameters: Type.Object({ all: Type.Optional(Type.Boolean()) }) };
    const outcome = await invokeTool(tool as unknown as AgentTool, undefined);
    expect(outcome.isError).toBe(false);
    expect(detailsOf(outcome)).toEqual({});
  });

  it("runs prepareArguments first", async () => {
    const tool: AgentTool = {
      ...(echoTool() as unknown as AgentTool),
      prepareArguments: (raw) => ({ ...(raw as object), path: "prepared.ts" }),
    };
    const outcome = await invokeTool(tool, { file: "x" });
    expect(detailsOf(outcome)).toEqual({ path: "prepared.ts" });
  });

  it("answers invalid_arguments with the problems a prepareArguments refusal lists", async () => {
    const problem = {
      field: "limit",
      expected: "integer",
      received: "number 1.50 parsed as 1.5",
      fix: "Send limit as a string.",
    };
    let executed = false;
    const tool: AgentTool = {
      ...(echoTool() as unknown as AgentTool),
      prepareArguments: () => {
        throw new ToolError("invalid_arguments", "refused", { details: { problems: [problem] } });
      },
      execute: async () => {
        executed = true;
        return { content: [], details: {} };
      },
    };
    const outcome = await invokeTool(tool, { path: "a.ts" });
    expect(outcome).toMatchObject({ isError: true, errorCode: "invalid_arguments" });
    expect(executed).toBe(false);
    expect((outcome.content[0] as { text: string }).text).toContain(
      "- limit: expected integer, received number 1.50 parsed as 1.5. Send limit as a string.",
    );
  });

  it("validates the arguments as sent when prepareArguments throws anything else", async () => {
    const tool: AgentTool = {
      ...(echoTool() as unknown as AgentTool),
      prepareArguments: () => {
        throw new ToolError("invalid_arguments", "no problems listed");
      },
    };
    const outcome = await invokeTool(tool, { path: "a.ts" });
    expect(outcome.isError).toBe(false);
    expect(detailsOf(outcome)).toEqual({ path: "a.ts" });
  });

  it("does not mutate the raw arguments", async () => {
    const sent = { path: "a.ts", limit: "5", extra: true };
    await invokeTool(echoTool(), raw(sent));
    expect(sent).toEqual({ path: "a.ts", limit: "5", extra: true });
  });
});

describe("invokeTool: validation errors", () => {
  it("names each bad field, what was expected, what arrived and how to fix it", async () => {
    const outcome = await invokeTool(echoTool(), raw({ offset: "2.5", limit: 0, raw: "maybe" }));
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("invalid_arguments");
    const text = (outcome.content[0] as { text: string }).text;
    expect(text).toContain("Invalid arguments for read:");
    expect(text).toContain("- path: expected string, received nothing. Add path (string).");
    expect(text).toContain(
      '- offset: expected integer >= 1, received string "2.5". Send offset as integer >= 1.',
    );
    expect(text).toContain("- limit: expected integer >= 1, received number 0.");
    expect(text).toContain('- raw: expected boolean, received string "maybe". Send raw as boolean.');
    expect(text).toContain("Call the tool again with corrected arguments.");
  });

  it("names nested fields by their path and lists allowed literals", async () => {
    const tool = { ...echoTool(), parameters: editParams } as unknown as AgentTool;
    const outcome = await invokeTool(tool, { path: "a", edits: [{ oldText: "x" }], mode: "prepend" });
    const text = (outcome.content[0] as { text: string }).text;
    expect(text).toContain("- edits[0].newText: expected string, received nothing.");
    expect(text).toContain('- mode: expected one of "replace", "append", received string "prepend".');
  });

  it("does not run the tool when validation fails", async () => {
    let ran = false;
    const tool: AgentTool = {
      ...(echoTool() as unknown as AgentTool),
      async execute() {
        ran = true;
        return { content: [], details: {} };
      },
    };
    await invokeTool(tool, { path: 5 as unknown as string, limit: "many" });
    expect(ran).toBe(false);
  });
});

describe("invokeTool: error mapping", () => {
  it("keeps a ToolError's code, message and details", async () => {
    const tool: AgentTool = {
      ...(echoTool() as unknown as AgentTool),
      async execute() {
        throw new ToolError("not_found", "File not found: a.ts. Use ls to see what exists.", {
          details: { path: "a.ts" },
        });
      },
    };
    const outcome = await invokeTool(tool, { path: "a.ts" });
    expect(outcome).toEqual({
      content: [{ type: "text", text: "File not found: a.ts. Use ls to see what exists." }],
      details: { path: "a.ts" },
      isError: true,
      errorCode: "not_found",
    });
  });

  it("keeps a code the tool declares in errorCodes", async () => {
    const tool: AgentTool<typeof readParams, unknown, "no_match"> = {
      ...(echoTool() as unknown as AgentTool<typeof readParams>),
      errorCodes: { no_match: "oldText was not found." },
      async execute() {
        throw new ToolError("no_match", "oldText was not found in a.ts.", { details: { line: 3 } });
      },
    };
    const outcome = await invokeTool(tool, { path: "a.ts" });
    expect(outcome).toMatchObject({ isError: true, errorCode: "no_match", details: { line: 3 } });
  });

  it("reports a code the tool did not declare as execution_failed, keeping the message and naming the code", async () => {
    const throwing = (code: string) =>
      ({
        ...(echoTool() as unknown as AgentTool),
        errorCodes: { no_match: "oldText was not found." },
        async execute() {
          throw new ToolError(code, "oldText was not found in a.ts.", { details: { line: 3 } });
        },
      }) as AgentTool;
    const outcome = await invokeTool(throwing("no_matchh"), { path: "a.ts" });
    expect(outcome).toEqual({
      content: [{ type: "text", text: "oldText was not found in a.ts." }],
      details: { undeclaredCode: "no_matchh", details: { line: 3 } },
      isError: true,
      errorCode: "execution_failed",
    });
    // A code inherited from Object.prototype is not declared either.
    const inherited = await invokeTool(throwing("toString"), { path: "a.ts" });
    expect(inherited).toMatchObject({
      errorCode: "execution_failed",
      details: { undeclaredCode: "toString" },
    });
  });

  it("turns any other throw (even a non-Error) into an error outcome", async () => {
    const tool: AgentTool = {
      ...(echoTool() as unknown as AgentTool),
      async execute() {
        throw "boom";
      },
    };
    const outcome = await invokeTool(tool, { path: "a.ts" });
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("execution_failed");
    expect(outcome.content).toEqual([
      { type: "text", text: "Tool read failed: boom. Check the arguments, or try another way." },
    ]);
  });

  it("maps a failure after abort to an aborted outcome, and does not start a tool when already aborted", async () => {
    const controller = new AbortController();
    let started = 0;
    const tool: AgentTool = {
      ...(echoTool() as unknown as AgentTool),
      execute: (_id, _p, signal) =>
        new Promise((_resolve, reject) => {
          started += 1;
          signal?.addEventListener("abort", () => reject(new Error("socket closed")));
        }),
    };
    const pending = invokeTool(tool, { path: "a.ts" }, { signal: controller.signal });
    controller.abort();
    expect((await pending).errorCode).toBe("aborted");
    expect((await invokeTool(tool, { path: "a.ts" }, { signal: controller.signal })).errorCode).toBe(
      "aborted",
    );
    expect(started).toBe(1);
  });

  it("reports a tool that returns no content as an error, and ignores a throwing update listener", async () => {
    const tool: AgentTool = {
      ...(echoTool() as unknown as AgentTool),
      async execute(_id, _p, _s, onUpdate) {
        onUpdate?.({ content: [{ type: "text", text: "partial" }], details: {} });
        return undefined as never;
      },
    };
    const outcome = await invokeTool(
      tool,
      { path: "a" },
      {
        onUpdate: () => {
          throw new Error("listener broke");
        },
      },
    );
    expect(outcome.errorCode).toBe("execution_failed");
    expect((outcome.content[0] as { text: string }).text).toContain("returned no content");
  });
});

describe("invokeTool: broken tools", () => {
  it("returns an error outcome (never throws) for a schema TypeBox cannot check", async () => {
    const tool = {
      ...(echoTool() as unknown as AgentTool),
      parameters: { type: "object", properties: { path: { type: "string" } } } as never,
    };
    const outcome = await invokeTool(tool, raw({ path: "a" }));
    expect(outcome).toMatchObject({ isError: true, errorCode: "invalid_schema" });
    expect((outcome.content[0] as { text: string }).text).toContain(
      "its parameters must be a TypeBox schema",
    );
  });
});
