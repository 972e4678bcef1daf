/**
 * Type tests (checked by `tsc` in `pnpm check`, never run): invokeTool takes the tool's own
 * argument type where the caller writes the arguments, raw input typed unknown where it does
 * not, and hands back the tool's details on success.
 */
import { Type } from "@sinclair/typebox";
import { expectTypeOf } from "vitest";
import {
  type AgentTool,
  type AnyAgentTool,
  type InvokeToolOutcome,
  invokeTool,
  type ToolErrorCode,
  type ToolOutcome,
} from "../src/index.js";

const parameters = Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer()) });
interface ReadLikeDetails {
  lines: number;
}
declare const read: AgentTool<typeof parameters, ReadLikeDetails>;
declare const anyTool: AnyAgentTool;
declare const fromModel: unknown;
declare const parsed: any;

// Written arguments are checked against the schema.
const outcome = await invokeTool(read, { path: "a.ts", limit: 20 });
// @ts-expect-error limit is a number
await invokeTool(read, { path: "a.ts", limit: "20" });
// @ts-expect-error path is required
await invokeTool(read, { limit: 20 });
// Raw input (model or MCP JSON) is accepted and checked when it runs.
await invokeTool(read, fromModel);
await invokeTool(read, parsed);
await invokeTool(read, { path: 1 } as unknown);
// A tool of any schema takes any arguments.
await invokeTool(anyTool, { whatever: true });

// Details are the tool's on success; failures carry a code and untyped details.
expectTypeOf(outcome).toEqualTypeOf<InvokeToolOutcome<ReadLikeDetails>>();
if (outcome.isError) {
  const code: ToolErrorCode = outcome.errorCode; // set on every failure
  void code;
  // @ts-expect-error a failure always has a code
  const missing: undefined = outcome.errorCode;
  void missing;
  expectTypeOf(outcome.details).toEqualTypeOf<unknown>();
} else {
  expectTypeOf(outcome.details).toEqualTypeOf<ReadLikeDetails>();
  expectTypeOf(outcome.details.lines).toEqualTypeOf<number>();
}
// Still a ToolOutcome wherever one is expected.
expectTypeOf(outcome).toExtend<ToolOutcome>();
expectTypeOf(await invokeTool(anyTool, fromModel)).toExtend<ToolOutcome>();

// A tool picked from a set at run time (a union of tool types): raw input works, details are
// the union, and written arguments must fit one of the tools.
const otherParameters = Type.Object({ command: Type.String() });
declare const shell: AgentTool<typeof otherParameters, { exitCode: number }>;
const picked = [read, shell][Math.floor(Math.random() * 2)]!;
const pickedOutcome = await invokeTool(picked, fromModel);
if (!pickedOutcome.isError)
  expectTypeOf(pickedOutcome.details).toEqualTypeOf<ReadLikeDetails | { exitCode: number }>();
await invokeTool(picked, { command: "ls" });
// @ts-expect-error fits neither tool
await invokeTool(picked, { command: 1 });
// Any tool: details unknown.
const anyOutcome = await invokeTool(anyTool, fromModel);
if (!anyOutcome.isError) expectTypeOf(anyOutcome.details).toEqualTypeOf<unknown>();
