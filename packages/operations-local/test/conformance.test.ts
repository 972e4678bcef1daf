import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { createLocalOperations } from "../src/index.js";

describeOperationsConformance("local", async () => {
  const root = await mkdtemp(join(tmpdir(), "tackle-conformance-"));
  return { ops: createLocalOperations(), root, cleanup: () => rm(root, { recursive: true, force: true }) };
});
