// The adapter of the "Add an adapter" guide passes the same conformance suite as the shipped
// adapters, unchanged: its commands, run by the shared wrapper over its own transport, included.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOperationError } from "@tackle/operations";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { describe, expect, it } from "vitest";
import { createProcessOperations } from "../guides/process-operations.js";

describeOperationsConformance(
  "the guide's process adapter",
  async () => {
    const root = await mkdtemp(join(tmpdir(), "tackle-process-"));
    const ops = createProcessOperations();
    return { ops, root, cleanup: () => rm(root, { recursive: true, force: true }) };
  },
  { search: false },
);

describe("the guide's process adapter checks its options", () => {
  it("quotes a bad value and names an unknown option", () => {
    expect(() => createProcessOperations({ killGraceMs: -1 })).toThrow(
      "createProcessOperations: option killGraceMs must be a number of 0 or more; got -1 (number).",
    );
    let error: unknown;
    try {
      createProcessOperations({ tempdir: "/tmp" } as never);
    } catch (caught) {
      error = caught;
    }
    expect(isOperationError(error, "invalid_argument")).toBe(true);
  });
});
