import { describeOperationsConformance } from "@tackle/operations/conformance";
import { startTestContainer } from "./session.js";

/** The operations conformance suite, unchanged, on a container of the private engine. */
describeOperationsConformance(
  "docker",
  async () => {
    const ops = await startTestContainer();
    await ops.mkdir("/work");
    return { ops, root: "/work" };
  },
  { shells: ["sh", "bash"], slowFactor: 2 },
);

/** Again with one exec per file call (no resident shells): both paths must conform. */
describeOperationsConformance(
  "docker, exec per call",
  async () => {
    const ops = await startTestContainer({ residentShells: false });
    await ops.mkdir("/work");
    return { ops, root: "/work" };
  },
  { shells: ["sh", "bash"], slowFactor: 2 },
);
