import { isOperationError } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { createKubernetesOperations, type KubernetesOperationsOptions } from "../src/index.js";

/** The error `createKubernetesOperations(options)` throws (before any kubeconfig is read), or undefined. */
function refusal(options: Record<string, unknown>): Error | undefined {
  try {
    void createKubernetesOperations(options as unknown as KubernetesOperationsOptions).dispose();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe("createKubernetesOperations checks its options", () => {
  it("quotes a bad value and its type", () => {
    const error = refusal({ pod: "dev-0", readyTimeoutMs: -1 });
    expect(isOperationError(error, "invalid_argument")).toBe(true);
    expect(error?.message).toBe(
      "createKubernetesOperations: option readyTimeoutMs must be a positive number; got -1 (number).",
    );
    expect(refusal({ pod: "dev-0", residentShells: 1 })?.message).toContain("got 1 (number)");
    expect(refusal({ pod: "dev-0", kubeconfig: 3 })?.message).toContain(
      "option kubeconfig must be a KubeConfig or the path of a kubeconfig file; got 3 (number)",
    );
  });

  it("names an unknown option", () => {
    expect(refusal({ pod: "dev-0", namespaces: "agents" })?.message).toMatch(
      /^createKubernetesOperations: unknown option namespaces\. Options: pod, selector/,
    );
  });
});
