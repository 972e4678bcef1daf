// The adapter of the "Write an Operations adapter" guide passes the same conformance suite as
// the shipped adapters, unchanged.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { createLocalOperations } from "@tackle/operations-local";
import { createRecordingOperations, type RecordedCall } from "../guides/recording-operations.js";

const calls: RecordedCall[] = [];

describeOperationsConformance("recording adapter over the local one", async () => {
  const root = await mkdtemp(join(tmpdir(), "tackle-recording-"));
  const ops = createRecordingOperations(createLocalOperations(), (call) => calls.push(call));
  return {
    ops,
    root,
    cleanup: async () => {
      await ops.dispose?.();
      await rm(root, { recursive: true, force: true });
    },
  };
});
