import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { createLocalOperations } from "../src/index.js";

// The whole suite again with every process (commands, the output capper, ripgrep) started by the
// spawn helper: each behaviour must be the same as a direct spawn's.
describeOperationsConformance("local, spawn helper", async () => {
  const root = await mkdtemp(join(tmpdir(), "tackle-conformance-helper-"));
  const ops = createLocalOperations({ spawner: "helper" });
  return {
    ops,
    root,
    cleanup: async () => {
      await ops.dispose?.();
      await rm(root, { recursive: true, force: true });
    },
  };
});
