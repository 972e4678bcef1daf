import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createKubernetesOperations, KubernetesOperationError } from "../src/index.js";
import { NAMESPACE, startTestCluster, type TestCluster } from "./support/test-cluster.js";

let cluster: TestCluster;
let dir: string;
const saved = { KUBECONFIG: process.env.KUBECONFIG, HOME: process.env.HOME };

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.addPod("err-0");
  dir = await mkdtemp(join(tmpdir(), "tackle-k8s-errors-"));
});
afterAll(async () => {
  await cluster?.stop();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

async function connectError(
  ops: ReturnType<typeof createKubernetesOperations>,
): Promise<KubernetesOperationError> {
  try {
    await ops.connect();
  } catch (error) {
    expect(error).toBeInstanceOf(KubernetesOperationError);
    return error as KubernetesOperationError;
  } finally {
    await ops.dispose();
  }
  throw new Error("connect succeeded");
}

describe("credentials the way kubectl finds them", () => {
  it("KUBECONFIG names the file; its context's namespace is the default", async () => {
    const file = join(dir, "config-a");
    await writeFile(file, cluster.api.kubeconfigYaml({ namespace: NAMESPACE, context: "from-env" }));
    process.env.KUBECONFIG = file;
    const ops = createKubernetesOperations({ pod: "err-0" });
    expect(ops).toMatchObject({ context: "from-env", namespace: NAMESPACE });
    expect((await ops.exec("echo hi", { shell: "sh", cwd: "/" })).status).toBe("completed");
    await ops.dispose();
  });

  it("an unknown context is a config error listing the contexts", () => {
    let thrown: unknown;
    try {
      createKubernetesOperations({ pod: "err-0", kubeconfig: cluster.api.kubeConfig(), context: "prod" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "invalid_argument", reason: "config" });
    expect((thrown as Error).message).toContain("it has: local");
    expect((thrown as Error).message).toContain("kubectl config get-contexts");
  });

  it("no KUBECONFIG, no ~/.kube/config and no service account is a config error saying so", () => {
    delete process.env.KUBECONFIG;
    process.env.HOME = dir;
    let thrown: unknown;
    try {
      createKubernetesOperations({ pod: "err-0" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "invalid_argument", reason: "config" });
    expect((thrown as Error).message).toContain("KUBECONFIG is not set");
  });
});

describe("refusals of the API server", () => {
  it("a wrong bearer token is unauthorized (401), for the pod read and for exec", async () => {
    const error = await connectError(
      createKubernetesOperations({
        pod: "err-0",
        kubeconfig: cluster.api.kubeConfig({ namespace: NAMESPACE, token: "wrong" }),
      }),
    );
    expect(error).toMatchObject({ code: "permission_denied", reason: "unauthorized", context: "local" });
    expect(error.message).toContain("kubectl --context local auth whoami");
  });

  it("an API server that is not there is api_unreachable (connection_lost) naming the server and the next step", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const config = cluster.api.kubeConfig({ namespace: NAMESPACE });
    const yaml = cluster.api
      .kubeconfigYaml({ namespace: NAMESPACE })
      .replace(cluster.api.url, `https://127.0.0.1:${port}`);
    config.loadFromString(yaml);
    const error = await connectError(createKubernetesOperations({ pod: "err-0", kubeconfig: config }));
    expect(error).toMatchObject({ code: "connection_lost", reason: "api_unreachable" });
    expect(error.message).toContain(`https://127.0.0.1:${port}`);
    expect(error.message).toContain("kubectl --context local cluster-info");
  });

  it("a call asking for network off is refused with not_supported (the pod's network is the cluster's), nothing run", async () => {
    const ops = cluster.operations({ pod: "err-0", residentShells: false });
    try {
      await expect(
        ops.exec("touch /tmp/sandbox-ran", { shell: "sh", cwd: "/", sandbox: { network: "off" } }),
      ).rejects.toMatchObject({
        code: "not_supported",
        message: expect.stringMatching(/cannot check the cluster's NetworkPolicies/),
      });
      expect((await ops.exec("test -e /tmp/sandbox-ran", { shell: "sh", cwd: "/" })).exitCode).toBe(1);
    } finally {
      await ops.dispose();
    }
  });

  it("a pod removed after connecting fails the next exec with pod_not_found, not a hang", async () => {
    const pod = await cluster.addPod("err-gone");
    const ops = cluster.operations({ pod: "err-gone", residentShells: false });
    await ops.connect();
    cluster.api.removePod(pod.namespace, pod.name);
    await expect(ops.exec("true", { shell: "sh", cwd: "/" })).rejects.toMatchObject({
      reason: "pod_not_found",
      code: "not_found",
    });
    await ops.dispose();
  });
});
