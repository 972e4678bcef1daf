import { describeOperationsConformance } from "@tackle/operations/conformance";
import { startTestCluster } from "./support/test-cluster.js";

/**
 * The operations conformance suite, unchanged, on a pod served by the local API endpoint (real
 * client library, real websocket exec, a real container behind it).
 */
describeOperationsConformance(
  "kubernetes (v5 exec)",
  async () => {
    const cluster = await startTestCluster();
    await cluster.addPod("conformance-0");
    const ops = cluster.operations({ pod: "conformance-0" });
    await ops.mkdir("/work");
    return { ops, root: "/work", cleanup: () => cluster.stop() };
  },
  { shells: ["sh", "bash"], slowFactor: 2, search: false },
);
