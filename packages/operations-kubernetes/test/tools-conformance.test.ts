import { createToolContext } from "@tackle/tools";
import { describeToolsConformance } from "@tackle/tools/testing";
import { afterAll, beforeAll } from "vitest";
import type { KubernetesOperations } from "../src/index.js";
import { startTestCluster, type TestCluster } from "./support/test-cluster.js";

/** The tools suite, unchanged, with every tool working in a pod through the adapter. */
let cluster: TestCluster | undefined;
let ops: KubernetesOperations | undefined;

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.addPod("tools-0");
  ops = cluster.operations({ pod: "tools-0" });
  await ops.connect();
});

afterAll(async () => {
  await ops?.dispose();
  await cluster?.stop();
});

describeToolsConformance("kubernetes", (cwd) => {
  if (!ops) throw new Error("the test pod did not start: see the beforeAll error");
  return createToolContext({ cwd, operations: ops });
});
