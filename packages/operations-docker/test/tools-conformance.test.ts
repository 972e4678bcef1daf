import { createToolContext } from "@tackle/tools";
import { describeToolsConformance } from "@tackle/tools/testing";
import { afterAll, beforeAll, inject } from "vitest";
import { createDockerOperations, type DockerOperations, type SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

/** The tools suite, unchanged, with every tool working inside a container through the adapter. */
let ops: SessionContainer | undefined;
/** A second adapter on the same container (its own engine client and shells): two adapters in one host. */
let second: DockerOperations | undefined;

beforeAll(async () => {
  ops = await startTestContainer();
  second = createDockerOperations({
    // The same container reference, so both adapters report one id and share the host's queue.
    container: ops.id.replace(/^docker:\/\//, ""),
    docker: { socketPath: inject("dockerSocket") },
  });
});

afterAll(async () => {
  await second?.dispose();
  await ops?.dispose();
});

describeToolsConformance(
  "docker",
  (cwd) => {
    if (!ops) throw new Error("the test container did not start: see the beforeAll error");
    return createToolContext({ cwd, operations: ops });
  },
  {
    // Each edit is a few scripts in the container: 1000 per writer when TACKLE_CONFORMANCE_ROUNDS says so.
    concurrentEditRounds: Number(process.env.TACKLE_CONFORMANCE_ROUNDS ?? 100),
    makeSecondContext: (cwd) => {
      if (!second) throw new Error("the test container did not start: see the beforeAll error");
      return createToolContext({ cwd, operations: second });
    },
  },
);
