import { isOperationError } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import {
  createDockerOperations,
  type DockerOperationsOptions,
  type SessionContainerOptions,
  startSessionContainer,
} from "../src/index.js";

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

describe("startSessionContainer checks its options before it asks the engine", () => {
  const refused = (options: Record<string, unknown>) =>
    startSessionContainer(options as unknown as SessionContainerOptions).then(
      () => undefined,
      (error: Error) => error,
    );

  it("quotes a bad value, names an unknown option and a missing image", async () => {
    const binds = await refused({ image: "tackle-test", binds: "/repo:/work" });
    expect(isOperationError(binds, "invalid_argument")).toBe(true);
    expect(binds?.message).toBe(
      'startSessionContainer: option binds must be an array of strings; got "/repo:/work" (string).',
    );
    expect((await refused({ image: "tackle-test", container: "dev" }))?.message).toMatch(
      /^startSessionContainer: unknown option container\./,
    );
    expect((await refused({}))?.message).toBe("startSessionContainer: option image is required");
  });
});
