import { ToolError } from "@tackle/agent-core";
import { OPERATION_ERROR_CODES, OperationError } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { mapEscapedError, toToolError } from "../src/operation-errors.js";

/** Words that start a next step in a model-facing message. */
const NEXT_STEP = /\b(Use|use|Check|Try|try|Retry|retry|Send|Do it|ask)\b/;

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

  it("says an environment failure is the environment's, never to check the arguments", () => {
    for (const code of ["connection_lost", "timeout"] as const) {
      const error = toToolError(new OperationError(code, "ssh: socket closed"), "src/a.ts");
      expect(error.code).toBe(code);
      expect(error.message).not.toMatch(/check the (arguments|path)/i);
      expect(error.message).toMatch(/environment/);
      expect(error.message).toMatch(/tell the user/);
    }
    expect(toToolError(new OperationError("connection_lost", "gone")).message).toContain(
      "The environment is unreachable",
    );
  });

  it("maps an adapter's invalid_argument (a name too long, a NUL byte) to invalid_arguments", () => {
    const error = toToolError(new OperationError("invalid_argument", "name too long"), "x".repeat(300));
    expect(error.code).toBe("invalid_arguments");
  });

  it("maps only OperationErrors that escape a tool, showing their path relative to cwd", () => {
    const context = { cwd: "/ws", operations: { platform: "posix" as const } };
    const mapped = mapEscapedError(
      new OperationError("connection_lost", "gone", { path: "/ws/src/a.ts" }),
      context,
    );
    expect(mapped).toMatchObject({ code: "connection_lost", message: expect.stringContaining("src/a.ts") });
    expect((mapped as Error).message).not.toContain("/ws/src");
    const plain = new Error("a bug");
    expect(mapEscapedError(plain, context)).toBe(plain);
  });

  it("passes a ToolError through unchanged", () => {
    const original = new ToolError("stale_read", "changed");
    expect(toToolError(original, "a")).toBe(original);
  });
});
