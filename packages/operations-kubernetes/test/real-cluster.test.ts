import { randomBytes } from "node:crypto";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { describe, it } from "vitest";
import { createKubernetesOperations } from "../src/index.js";

/**
 * Opt-in: the same conformance suite against a real cluster, when KUBECONFIG is set. It runs in
 * the pod TACKLE_K8S_POD names (`namespace/pod[/container]`), else in a pod it creates from
 * TACKLE_K8S_IMAGE (default `busybox:1.36`, pulled by the cluster) in the context's namespace
 * and deletes afterwards. TACKLE_K8S_SHELLS: the shells to check (default `sh`; add bash for an
 * image that has it).
 */
const kubeconfig = process.env.KUBECONFIG;

if (!kubeconfig) {
  describe("real cluster (skipped: KUBECONFIG is not set; set it, and optionally TACKLE_K8S_POD, to run the conformance suite against a cluster)", () => {
    it.skip("conformance against a real cluster", () => {});
  });
} else {
  const shells = (process.env.TACKLE_K8S_SHELLS ?? "sh")
    .split(",")
    .filter((s): s is "sh" | "bash" => s === "sh" || s === "bash");
  describeOperationsConformance(
    `real cluster (KUBECONFIG=${kubeconfig})`,
    async () => {
      const config = new KubeConfig();
      config.loadFromDefault();
      const given = process.env.TACKLE_K8S_POD?.split("/");
      const namespace =
        given?.[0] ?? config.getContextObject(config.getCurrentContext())?.namespace ?? "default";
      let pod = given?.[1];
      let cleanup: (() => Promise<void>) | undefined;
      if (!pod) {
        const core = config.makeApiClient(CoreV1Api);
        pod = `tackle-conformance-${randomBytes(3).toString("hex")}`;
        const name = pod;
        await core.createNamespacedPod({
          namespace,
          body: {
            metadata: { name, labels: { "app.kubernetes.io/name": "tackle-conformance" } },
            spec: {
              restartPolicy: "Never",
              terminationGracePeriodSeconds: 1,
              containers: [
                {
                  name: "main",
                  image: process.env.TACKLE_K8S_IMAGE ?? "busybox:1.36",
                  command: ["sh", "-c", "while :; do sleep 3600; done"],
                },
              ],
            },
          },
        });
        cleanup = async () => {
          await core.deleteNamespacedPod({ name, namespace }).catch(() => undefined);
        };
        for (let i = 0; i < 240; i++) {
          const read = await core.readNamespacedPod({ name, namespace });
          if (read.status?.phase === "Running") break;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
      const target = { pod, namespace, ...(given?.[2] ? { container: given[2] } : {}) };
      const ops = createKubernetesOperations(target);
      const root = `/tmp/tackle-conformance-${randomBytes(4).toString("hex")}`;
      await ops.mkdir(root);
      return {
        ops,
        root,
        // After the suite disposed `ops`: a second adapter removes the root (a created pod goes whole).
        cleanup: async () => {
          if (cleanup) return cleanup();
          const sweeper = createKubernetesOperations(target);
          await sweeper.remove(root, { recursive: true, force: true }).catch(() => undefined);
          await sweeper.dispose();
        },
      };
    },
    { shells, slowFactor: 4, search: false },
  );
}
