/**
 * Type tests (checked by `tsc` in `pnpm check`, never run): the core's codes are a closed union;
 * a tool's own codes come from its `errorCodes` declaration and type its outcomes end to end.
 */
import { Type } from "@sinclair/typebox";
import { expectTypeOf } from "vitest";
import type { AfterToolCallContext } from "../src/hooks.js";
import { invokeTool } from "../src/invoke-tool.js";
import type { ToolResultMessage } from "../src/messages.js";
import type { AgentTool, AnyAgentTool, ToolErrorCode, ToolOutcome } from "../src/tool.js";
import {
  type CORE_ERROR_CODES,
  type CoreErrorCode,
  type ErrorCodeMeanings,
  isToolError,
} from "../src/tool-error.js";
import { errorOutcome } from "../src/tool-outcome.js";

expectTypeOf<CoreErrorCode>().toEqualTypeOf<keyof typeof CORE_ERROR_CODES>();
expectTypeOf<"stale_read">().toExtend<CoreErrorCode>();
// Tool concepts are not the core's: a tool declares them.
expectTypeOf<"no_match">().not.toExtend<CoreErrorCode>();
expectTypeOf<"redacted_text">().not.toExtend<CoreErrorCode>();
expectTypeOf<string>().not.toExtend<CoreErrorCode>();

// @ts-expect-error the core's own outcomes carry core codes only
errorOutcome("made_up_code", "x");
expectTypeOf(errorOutcome("blocked", "x").errorCode).toEqualTypeOf<"blocked" | undefined>();

// A tool's codes are inferred from its declaration.
const parameters = Type.Object({ path: Type.String() });
const edit = {
  name: "edit",
  label: "Edit",
  description: "Edits a file.",
  parameters,
  errorCodes: { no_match: "oldText was not found.", ambiguous_match: "oldText matches more than once." },
  async execute() {
    return { content: [], details: { replaced: 1 } };
  },
} satisfies AgentTool<typeof parameters, { replaced: number }, "no_match" | "ambiguous_match">;
expectTypeOf<ToolErrorCode<typeof edit>>().toEqualTypeOf<CoreErrorCode | "no_match" | "ambiguous_match">();
const declared: AgentTool<typeof parameters, { replaced: number }, "no_match" | "ambiguous_match"> = edit;
expectTypeOf<ToolErrorCode<typeof declared>>().toEqualTypeOf<
  CoreErrorCode | "no_match" | "ambiguous_match"
>();
// A tool that declares nothing fails with core codes only; any tool with any string.
declare const plain: AgentTool<typeof parameters, { lines: number }>;
expectTypeOf<ToolErrorCode<typeof plain>>().toEqualTypeOf<CoreErrorCode>();
expectTypeOf<ToolErrorCode<AnyAgentTool>>().toEqualTypeOf<string>();
expectTypeOf<ToolErrorCode>().toEqualTypeOf<string>();
// A union of tools: the codes of every member.
expectTypeOf<ToolErrorCode<typeof declared | typeof plain>>().toEqualTypeOf<
  CoreErrorCode | "no_match" | "ambiguous_match"
>();
// A declaration lists every code of the tool's union.
const onlyOne = { no_match: "x" };
// @ts-expect-error "other" is not declared
const missing: ErrorCodeMeanings<"no_match" | "other"> = onlyOne;
void missing;
expectTypeOf({ no_match: "x" }).toExtend<ErrorCodeMeanings>();

// invokeTool: a failure's code is the tool's union.
const outcome = await invokeTool(declared, { path: "a" });
if (outcome.isError) {
  expectTypeOf(outcome.errorCode).toEqualTypeOf<CoreErrorCode | "no_match" | "ambiguous_match">();
  // @ts-expect-error not a code of this tool
  if (outcome.errorCode === "made_up_code") throw new Error();
}
const plainOutcome = await invokeTool(plain, { path: "a" });
if (plainOutcome.isError) expectTypeOf(plainOutcome.errorCode).toEqualTypeOf<CoreErrorCode>();

// Hooks see the codes of the run's tools.
expectTypeOf<AfterToolCallContext<typeof declared>["result"]["errorCode"]>().toEqualTypeOf<
  CoreErrorCode | "no_match" | "ambiguous_match" | undefined
>();
// Results and messages take the codes as a parameter: any code by default.
expectTypeOf<ToolOutcome["errorCode"]>().toEqualTypeOf<string | undefined>();
expectTypeOf<ToolResultMessage["errorCode"]>().toEqualTypeOf<string | undefined>();
expectTypeOf<ToolResultMessage<unknown, ToolErrorCode<typeof declared>>["errorCode"]>().toEqualTypeOf<
  CoreErrorCode | "no_match" | "ambiguous_match" | undefined
>();

// isToolError narrows to the code asked about.
declare const thrown: unknown;
if (isToolError(thrown, "no_match")) expectTypeOf(thrown.code).toEqualTypeOf<"no_match">();
