/**
 * Type tests (checked by `tsc` in `pnpm check`, never run): the error-code union is closed, so
 * every code thrown or compared anywhere must be one of TOOL_ERROR_CODES.
 */
import { expectTypeOf } from "vitest";
import { errorOutcome } from "../src/invoke-tool.js";
import type { ToolResultMessage } from "../src/messages.js";
import type { ToolOutcome } from "../src/tool.js";
import { isToolError, type TOOL_ERROR_CODES, ToolError, type ToolErrorCode } from "../src/tool-error.js";

expectTypeOf<ToolErrorCode>().toEqualTypeOf<(typeof TOOL_ERROR_CODES)[number]>();
expectTypeOf<"redacted_text">().toExtend<ToolErrorCode>();
expectTypeOf<"made_up_code">().not.toExtend<ToolErrorCode>();
// A plain string is not a code: the union has no `string & {}` escape hatch.
expectTypeOf<string>().not.toExtend<ToolErrorCode>();

// @ts-expect-error a code outside the union cannot be thrown
new ToolError("made_up_code", "x");
// @ts-expect-error nor returned as an outcome
errorOutcome("made_up_code", "x");
// @ts-expect-error nor asked about
isToolError(new Error("x"), "made_up_code");

expectTypeOf<ToolOutcome["errorCode"]>().toEqualTypeOf<ToolErrorCode | undefined>();
expectTypeOf<ToolResultMessage["errorCode"]>().toEqualTypeOf<ToolErrorCode | undefined>();
