import { isOperationError } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { createDockerOperations, type DockerOperationsOptions } from "../src/index.js";

/** The error `createDockerOperations(options)` throws (nothing connects before a call), or undefined. */
function refusal(options: Record<string, unknown>): Error | undefined {
  try {
    void createDockerOperations(options as unknown as DockerOperationsOptions).dispose();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe("createDockerOperations checks its options", () => {
  it("quotes a bad value and its type", () => {
    const error = refusal({ container: "dev", residentShells: "no" });
    expect(isOperationError(error, "invalid_argument")).toBe(true);
    expect(error?.message).toBe(
      'createDockerOperations: option residentShells must be true or false; got "no" (string).',
    );
    expect(refusal({ container: "dev", ripgrepPath: true })?.message).toContain(
      "option ripgrepPath must be a path or false; got true (boolean)",
    );
    expect(refusal({ container: "dev", tempDir: "" })?.message).toContain(
      "option tempDir must be a non-empty string",
    );
  });

  it("names an unknown option", () => {
    expect(refusal({ container: "dev", image: "debian" })?.message).toMatch(
      /^createDockerOperations: unknown option image\. Options: container, docker/,
    );
  });

  it("still names the container first when it is missing", () => {
    expect(refusal({})?.message).toContain("container must be the name or id of a running container");
  });
});
