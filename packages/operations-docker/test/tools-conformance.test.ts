import { createToolContext } from "@tackle/tools";
import { describeToolsConformance } from "@tackle/tools/testing";
import { afterAll, beforeAll } from "vitest";
import type { SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

/** The tools suite, unchanged, with every tool working inside a container through the adapter. */
let ops: SessionContainer | undefined;

beforeAll(async () => {
  ops = await startTestContainer();
});

afterAll(async () => {
  await ops?.dispose();
});

describeToolsConformance("docker", (cwd) => {
  if (!ops) throw new Error("the test container did not start: see the beforeAll error");
  return createToolContext({ cwd, operations: ops });
});
