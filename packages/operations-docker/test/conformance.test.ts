import { describeOperationsConformance } from "@tackle/operations/conformance";
import { startTestContainer } from "./session.js";

describeOperationsConformance(
  "docker",
  async () => {
    const ops = await startTestContainer();
    await ops.mkdir("/work");
    return { ops, root: "/work" };
  },
  { shells: ["sh", "bash"], slowFactor: 2 },
);
