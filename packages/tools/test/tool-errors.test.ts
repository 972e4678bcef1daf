import { ToolError } from "@tackle/agent-core";
import { OPERATION_ERROR_CODES, OperationError } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { toToolError } from "../src/tool-errors.js";

/** Words that start a next step in a model-facing message. */
const NEXT_STEP = /\b(Use|use|Check|Try|try|Retry|Do it|ask)\b/;

describe("toToolError", () => {
  for (const code of OPERATION_ERROR_CODES) {
    it(`${code}: names the path and a next step, and keeps a typed code`, () => {
      const error = toToolError(new OperationError(code, "the adapter's words", { path: "/x" }), "src/a.ts");
      expect(error).toBeInstanceOf(ToolError);
      expect(error.message).toContain("src/a.ts");
      expect(error.message).toMatch(NEXT_STEP);
      expect(error.cause).toBeInstanceOf(OperationError);
    });
  }

  it("passes a ToolError through unchanged", () => {
    const original = new ToolError("stale_read", "changed");
    expect(toToolError(original, "a")).toBe(original);
  });
});
