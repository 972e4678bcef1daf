import { describeOperationsConformance } from "@tackle/operations/conformance";
import { startTestCluster } from "./support/test-cluster.js";

/**
 * Rounds per writer of the concurrent-writers check: the kit's 1000 when TACKLE_CONFORMANCE_ROUNDS
 * says so, 200 by default (each conditional write is one script run in the pod), a quarter of that
 * with one exec per call.
 */
const rounds = Number(process.env.TACKLE_CONFORMANCE_ROUNDS ?? 200);

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
  { shells: ["sh", "bash"], slowFactor: 2, search: false, concurrentWriteRounds: rounds },
);

/** Again against an API server that predates v5 (it answers with v4.channel.k8s.io): both must conform. */
describeOperationsConformance(
  "kubernetes (v4 exec)",
  async () => {
    const cluster = await startTestCluster({ v5: false });
    await cluster.addPod("conformance-v4");
    const ops = cluster.operations({ pod: "conformance-v4" });
    await ops.mkdir("/work");
    return { ops, root: "/work", cleanup: () => cluster.stop() };
  },
  { shells: ["sh", "bash"], slowFactor: 2, search: false, concurrentWriteRounds: rounds },
);

/** Again with one exec per file call (no resident shells): both paths must conform. */
describeOperationsConformance(
  "kubernetes, exec per call",
  async () => {
    const cluster = await startTestCluster();
    await cluster.addPod("conformance-per-call");
    const ops = cluster.operations({ pod: "conformance-per-call", residentShells: false });
    await ops.mkdir("/work");
    return { ops, root: "/work", cleanup: () => cluster.stop() };
  },
  { shells: ["sh", "bash"], slowFactor: 2, search: false, concurrentWriteRounds: Math.ceil(rounds / 4) },
);
