/**
 * Type tests (checked by `tsc` in `pnpm check`, never run): `defineTool` infers parameters and
 * details so nobody restates them, and the extension API types each event's handler.
 */
import { Type } from "@sinclair/typebox";
import {
  type AgentEvent,
  type AgentToolResult,
  type AgentToolUpdateCallback,
  type CoreErrorCode,
  invokeTool,
  ToolError,
  type ToolErrorCode,
  type ToolOutcome,
} from "@tackle/agent-core";
import { expectTypeOf } from "vitest";
import {
  defineExtension,
  defineTool,
  type ExtensionContext,
  isToolCallFor,
  isToolResultFor,
  type ToolCallEventResult,
  type ToolDefinition,
  type ToolResultPatch,
  wrapToolDefinition,
} from "../src/index.js";

const parameters = Type.Object({ name: Type.String(), times: Type.Optional(Type.Integer()) });

// defineTool: params from the TypeBox schema, details from what execute returns.
const greet = defineTool({
  name: "greet",
  label: "Greet",
  description: "Greets someone.",
  annotations: { readOnlyHint: true },
  parameters,
  async execute(_id, params, _signal, onUpdate, ctx) {
    expectTypeOf(params).toEqualTypeOf<{ name: string; times?: number }>();
    expectTypeOf(ctx).toEqualTypeOf<ExtensionContext>();
    expectTypeOf(onUpdate).toEqualTypeOf<AgentToolUpdateCallback | undefined>();
    return {
      content: [{ type: "text", text: `hi ${params.name}` }],
      details: { greeted: params.name, at: 1 },
    };
  },
});
expectTypeOf(greet).toEqualTypeOf<ToolDefinition<typeof parameters, { greeted: string; at: number }>>();

defineTool({
  name: "bad",
  label: "Bad",
  description: "Reads a field its schema does not have.",
  annotations: {},
  parameters,
  async execute(_id, params) {
    // @ts-expect-error `missing` is not a parameter
    return { content: [], details: params.missing };
  },
});

defineTool({
  name: "no-content",
  label: "No content",
  description: "Returns no content.",
  parameters,
  // @ts-expect-error execute must return content
  async execute() {
    return { details: {} };
  },
  annotations: {},
});

// A definition wrapped into a tool keeps both types, and invokeTool follows them.
declare const context: ExtensionContext;
const tool = wrapToolDefinition(greet, () => context);
const outcome = await invokeTool(tool, { name: "Ada" });
if (!outcome.isError) expectTypeOf(outcome.details).toEqualTypeOf<{ greeted: string; at: number }>();
// @ts-expect-error name is a string
await invokeTool(tool, { name: 1 });

// A definition's own error codes are inferred from errorCodes and kept by wrapToolDefinition.
const lookup = defineTool({
  name: "lookup",
  label: "Lookup",
  description: "Looks someone up.",
  annotations: { readOnlyHint: true },
  parameters,
  errorCodes: { unknown_person: "Nobody of that name is known." },
  async execute(_id, params) {
    if (params.name === "") throw new ToolError("unknown_person", "Nobody is called that.");
    return { content: [], details: { found: true } };
  },
});
expectTypeOf(lookup).toEqualTypeOf<ToolDefinition<typeof parameters, { found: boolean }, "unknown_person">>();
const lookupTool = wrapToolDefinition(lookup, () => context);
expectTypeOf<ToolErrorCode<typeof lookupTool>>().toEqualTypeOf<CoreErrorCode | "unknown_person">();
const looked = await invokeTool(lookupTool, { name: "Ada" });
if (looked.isError) expectTypeOf(looked.errorCode).toEqualTypeOf<CoreErrorCode | "unknown_person">();
// A definition without errorCodes fails with core codes only.
expectTypeOf<ToolErrorCode<typeof tool>>().toEqualTypeOf<CoreErrorCode>();

// The extension API: each event's handler is typed by its name.
defineExtension({
  name: "typed",
  setup(api) {
    api.registerTool(greet);
    api.on("tool_call", (event, ctx) => {
      expectTypeOf(event.input).toEqualTypeOf<Record<string, unknown>>();
      expectTypeOf(ctx).toEqualTypeOf<ExtensionContext>();
      if (isToolCallFor(event, greet)) expectTypeOf(event.input.name).toEqualTypeOf<string>();
      const verdict: ToolCallEventResult = { block: true, reason: "no" };
      return verdict;
    });
    api.on("tool_result", (event) => {
      expectTypeOf(event.content).toEqualTypeOf<ToolOutcome["content"]>();
      if (isToolResultFor(event, greet)) expectTypeOf(event.details.greeted).toEqualTypeOf<string>();
      const patch: ToolResultPatch = { isError: false };
      return patch;
    });
    api.on("turn_end", (event) => {
      expectTypeOf(event).toEqualTypeOf<Extract<AgentEvent, { type: "turn_end" }>>();
    });
    // @ts-expect-error not an event
    api.on("tool_called", () => {});
    // @ts-expect-error a tool_call handler returns a verdict, not a string
    api.on("tool_call", () => "block");
    api.registerCommand("hello", { description: "Says hello.", run: (args, ctx) => void [args, ctx] });
  },
});

// @ts-expect-error an extension needs a name
defineExtension({ setup() {} });

// A plain AgentToolResult-returning execute also satisfies ToolDefinition.
const plain: ToolDefinition<typeof parameters, { n: number }> = {
  ...greet,
  async execute(): Promise<AgentToolResult<{ n: number }>> {
    return { content: [], details: { n: 1 } };
  },
};
void plain;
