import { isOperationError } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { createLocalOperations, type LocalOperationsOptions } from "../src/index.js";

/** The error `createLocalOperations(options)` throws, or undefined. */
function refusal(options: unknown): Error | undefined {
  try {
    createLocalOperations(options as LocalOperationsOptions);
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe("createLocalOperations checks its options", () => {
  it("refuses a negative or NaN grace, quoting the value and its type", () => {
    const idle = refusal({ idleGraceMs: -1 });
    expect(isOperationError(idle, "invalid_argument")).toBe(true);
    expect(idle?.message).toBe(
      "createLocalOperations: option idleGraceMs must be a number of 0 or more; got -1 (number).",
    );
    expect(refusal({ killGraceMs: Number.NaN })?.message).toContain("got NaN (number)");
    expect(refusal({ killGraceMs: "2s" })?.message).toContain('got "2s" (string)');
  });

  it("names an unknown option", () => {
    const error = refusal({ killGraceMS: 500 });
    expect(isOperationError(error, "invalid_argument")).toBe(true);
    expect(error?.message).toMatch(
      /^createLocalOperations: unknown option killGraceMS\. Options: .*killGraceMs/,
    );
  });

  it("refuses an rgPath that is neither a path nor false, and takes the valid ones", () => {
    expect(refusal({ rgPath: true })?.message).toContain(
      "option rgPath must be a path or false; got true (boolean)",
    );
    expect(refusal({ rgPath: false, killGraceMs: 0, idleGraceMs: 0, env: {} })).toBeUndefined();
    expect(refusal(undefined)).toBeUndefined();
  });
});
