import { isOperationError } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { createSshOperations, type SshOperationsOptions } from "../src/index.js";

/** Options that pass the check (nothing connects until a call). */
const BASE = { host: "127.0.0.1", username: "me", agent: "/nonexistent.sock" };

/** The error `createSshOperations(options)` throws, or undefined. */
function refusal(options: Record<string, unknown>): Error | undefined {
  try {
    void createSshOperations(options as unknown as SshOperationsOptions).dispose();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe("createSshOperations checks its options", () => {
  it("refuses maxChannels 0 (every exec would wait forever) and NaN (unbounded)", () => {
    const zero = refusal({ ...BASE, maxChannels: 0 });
    expect(isOperationError(zero, "invalid_argument")).toBe(true);
    expect(zero?.message).toBe(
      "createSshOperations: option maxChannels must be a positive integer; got 0 (number).",
    );
    expect(refusal({ ...BASE, maxChannels: Number.NaN })?.message).toContain("got NaN (number)");
    expect(refusal({ ...BASE, maxChannels: 2.5 })?.message).toContain("got 2.5 (number)");
  });

  it("refuses bad graces, ports and timeouts with the value and its type", () => {
    expect(refusal({ ...BASE, killGraceMs: -5 })?.message).toContain(
      "option killGraceMs must be a number of 0 or more; got -5 (number)",
    );
    expect(refusal({ ...BASE, idleGraceMs: "100" })?.message).toContain('got "100" (string)');
    expect(refusal({ ...BASE, port: 70_000 })?.message).toContain("option port must be a port number");
    expect(refusal({ ...BASE, readyTimeoutMs: 0 })?.message).toContain("option readyTimeoutMs");
    expect(refusal({ ...BASE, ripgrep: true })?.message).toContain('must be "auto", a path or false');
  });

  it("names an unknown option and a missing host", () => {
    expect(refusal({ ...BASE, maxChannel: 2 })?.message).toMatch(
      /unknown option maxChannel\. Options: .*maxChannels/,
    );
    const missing = refusal({ username: "me", agent: "/x.sock" });
    expect(isOperationError(missing, "invalid_argument")).toBe(true);
    expect(missing?.message).toBe("createSshOperations: option host is required");
  });

  it("takes valid options", () => {
    expect(refusal({ ...BASE, maxChannels: 1, killGraceMs: 0, port: 2222, ripgrep: "auto" })).toBeUndefined();
  });
});
