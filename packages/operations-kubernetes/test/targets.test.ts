import { isOperationError } from "@tackle/operations";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KubernetesOperationError } from "../src/index.js";
import { NAMESPACE, startTestCluster, type TestCluster } from "./support/test-cluster.js";

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.addPod("web-1", { labels: { app: "web", tier: "front" } });
  await cluster.addPod("web-0", { labels: { app: "web", tier: "front" } });
  await cluster.addPod("db-0", { labels: { app: "db" } });
  await cluster.addPod("multi-0", {
    containers: ["main", "sidecar"],
    annotations: { "kubectl.kubernetes.io/default-container": "sidecar" },
  });
  await cluster.addPod("pending-0", { phase: "Pending" });
  await cluster.addPod("warm-pool-abc12", { labels: { pool: "warm" } });
});
afterAll(async () => {
  await cluster?.stop();
});

/** Connects and returns the pod and container the adapter resolved, then disposes it. */
async function resolved(options: Parameters<TestCluster["operations"]>[0]) {
  const ops = cluster.operations(options);
  try {
    await ops.connect();
    return ops.pod;
  } finally {
    await ops.dispose();
  }
}

async function failure(options: Parameters<TestCluster["operations"]>[0]): Promise<KubernetesOperationError> {
  const ops = cluster.operations(options);
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

describe("a pod by name", () => {
  it("runs in its first container, or the one kubectl's default-container annotation names, or the one asked for", async () => {
    expect(await resolved({ pod: "web-0" })).toMatchObject({
      pod: "web-0",
      container: "main",
      namespace: NAMESPACE,
    });
    expect(await resolved({ pod: "multi-0" })).toMatchObject({ container: "sidecar" });
    expect(await resolved({ pod: "multi-0", container: "main" })).toMatchObject({ container: "main" });
  });

  it("a missing pod, a pod not running and a missing container are typed, naming the next step", async () => {
    const missing = await failure({ pod: "nope-0" });
    expect(missing).toMatchObject({
      code: "not_found",
      reason: "pod_not_found",
      context: "local",
      namespace: NAMESPACE,
    });
    expect(missing.message).toContain(`kubectl --context local -n ${NAMESPACE} get pod nope-0`);
    const pending = await failure({ pod: "pending-0" });
    expect(pending).toMatchObject({ reason: "pod_not_running" });
    expect(pending.message).toContain("Pending");
    expect(pending.message).toContain("describe pod pending-0");
    const container = await failure({ pod: "multi-0", container: "nope" });
    expect(container).toMatchObject({ reason: "container_not_found" });
    expect(container.message).toContain("main, sidecar");
  });

  it("a file written through one adapter is read through another on the same pod", async () => {
    const writer = cluster.operations({ pod: "web-0" });
    await writer.writeFile("/tmp/shared.txt", "from web-0");
    const reader = cluster.operations({ selector: "app=web" });
    expect(Buffer.from(await reader.readFile("/tmp/shared.txt")).toString()).toBe("from web-0");
    await Promise.all([writer.dispose(), reader.dispose()]);
  });
});

describe("a label selector", () => {
  it("takes the first running pod by name that matches", async () => {
    expect(await resolved({ selector: "app=web" })).toMatchObject({
      pod: "web-0",
      described: "pods app=web",
    });
    expect(await resolved({ selector: "app=web,tier!=back" })).toMatchObject({ pod: "web-0" });
    expect(await resolved({ selector: "app=db" })).toMatchObject({ pod: "db-0" });
  });

  it("matching nothing is no_matching_pod with the kubectl get pods -l step", async () => {
    const error = await failure({ selector: "app=none" });
    expect(error).toMatchObject({ code: "not_found", reason: "no_matching_pod" });
    expect(error.message).toContain(`kubectl --context local -n ${NAMESPACE} get pods -l app=none`);
  });
});

describe("agent-sandbox", () => {
  it("a ready Sandbox resolves to the pod of the same name", async () => {
    await cluster.addPod("box-1");
    cluster.api.putObject({ kind: "sandbox", name: "box-1", namespace: NAMESPACE, ready: true });
    expect(await resolved({ sandbox: "box-1" })).toMatchObject({ pod: "box-1", described: "sandbox box-1" });
  });

  it("a Sandbox that adopted a warm-pool pod resolves to that pod (its pod-name annotation)", async () => {
    cluster.api.putObject({
      kind: "sandbox",
      name: "box-2",
      namespace: NAMESPACE,
      ready: true,
      podName: "warm-pool-abc12",
    });
    expect(await resolved({ sandbox: "box-2" })).toMatchObject({ pod: "warm-pool-abc12" });
  });

  it("a SandboxClaim is waited for until ready, then resolved through its Sandbox to the pod", async () => {
    cluster.api.putObject({ kind: "claim", name: "claim-1", namespace: NAMESPACE, ready: false });
    const ops = cluster.operations({ sandboxClaim: "claim-1" });
    const connecting = ops.connect();
    const path = `/apis/extensions.agents.x-k8s.io/v1alpha1/namespaces/${NAMESPACE}/sandboxclaims/claim-1`;
    // The claim was read (and found not ready) at least twice: the adapter is waiting.
    await vi.waitFor(() => expect(cluster.api.requests(path)).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    cluster.api.putObject({
      kind: "sandbox",
      name: "claim-1-box",
      namespace: NAMESPACE,
      ready: true,
      podName: "warm-pool-abc12",
    });
    cluster.api.putObject({
      kind: "claim",
      name: "claim-1",
      namespace: NAMESPACE,
      ready: true,
      sandboxName: "claim-1-box",
    });
    await connecting;
    expect(ops.pod).toMatchObject({ pod: "warm-pool-abc12", described: "sandboxclaim claim-1" });
    expect((await ops.exec("echo in-sandbox", { shell: "sh", cwd: "/" })).status).toBe("completed");
    await ops.dispose();
  });

  it("not ready within the bound is sandbox_not_ready (timeout) with the condition's reason and the next step", async () => {
    cluster.api.putObject({ kind: "sandbox", name: "slow", namespace: NAMESPACE, ready: false });
    const error = await failure({ sandbox: "slow", readyTimeoutMs: 600 });
    expect(error).toMatchObject({ code: "timeout", reason: "sandbox_not_ready" });
    expect(error.message).toContain("DependenciesNotReady");
    expect(error.message).toContain(`kubectl --context local -n ${NAMESPACE} get sandbox slow -o yaml`);
  });

  it("a missing Sandbox or SandboxClaim is sandbox_not_found", async () => {
    expect(await failure({ sandbox: "none" })).toMatchObject({
      code: "not_found",
      reason: "sandbox_not_found",
    });
    const claim = await failure({ sandboxClaim: "none" });
    expect(claim).toMatchObject({ reason: "sandbox_not_found" });
    expect(claim.message).toContain("get sandboxclaim none");
  });
});

it("exactly one target is required", () => {
  for (const options of [{}, { pod: "a", selector: "b=c" }] as Parameters<TestCluster["operations"]>[0][]) {
    let thrown: unknown;
    try {
      cluster.operations(options);
    } catch (error) {
      thrown = error;
    }
    expect(isOperationError(thrown, "invalid_argument")).toBe(true);
  }
});
