import { type ExecSpawn, isOperationError } from "@tackle/operations";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestCluster, type TestCluster } from "./support/test-cluster.js";

// In a pod the pod is the sandbox: a sandboxed call runs when the container's spec gives what it
// asks (a read-only root, the writable paths on writable volumes; network "on", since the
// cluster's NetworkPolicies are not the pod's to show), and is refused (not_supported, nothing
// run) naming what is missing otherwise.

/** A container spec with a read-only root and emptyDir volumes for the workspace and /tmp. */
const HARDENED = {
  securityContext: { readOnlyRootFilesystem: true, seccompProfile: { type: "RuntimeDefault" } },
  volumeMounts: [
    { name: "work", mountPath: "/work" },
    { name: "tmp", mountPath: "/tmp" },
    { name: "config", mountPath: "/config", readOnly: true },
  ],
};

describe("sandboxed calls in a pod", () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
    await cluster.addPod("hardened-0", { containerSpec: HARDENED });
    await cluster.addPod("plain-0");
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("a pod with a read-only root runs the call, reported as sandboxed by the container", async () => {
    const ops = cluster.operations({ pod: "hardened-0", residentShells: false });
    try {
      let text = "";
      const spawns: ExecSpawn[] = [];
      const result = await ops.exec("echo x > /etc/escape 2>&1; echo ws > /work/a && cat /work/a", {
        shell: "sh",
        cwd: "/",
        sandbox: { network: "on", writable: ["/work"] },
        onChunk: (chunk) => {
          text += Buffer.from(chunk.bytes).toString("utf8");
        },
        onSpawn: (spawn) => spawns.push(spawn),
      });
      expect(result.sandbox).toEqual({
        mechanism: "container",
        network: "on",
        writable: ["/work", "/tmp"],
        seccomp: true,
      });
      expect(spawns[0]?.sandbox?.mechanism).toBe("container");
      expect(text).toMatch(/Read-only file system/);
      expect(text).toContain("ws\n");
    } finally {
      await ops.dispose();
    }
  });

  it("a writable path on no writable volume (a read-only one) is refused, nothing run", async () => {
    const ops = cluster.operations({ pod: "hardened-0", residentShells: false });
    try {
      const error = await ops
        .exec("touch /work/ran-config", {
          shell: "sh",
          cwd: "/",
          sandbox: { network: "on", writable: ["/config"] },
        })
        .catch((e: unknown) => e);
      expect(isOperationError(error, "not_supported")).toBe(true);
      expect((error as Error).message).toMatch(/\/config is not on a writable volume mount/);
      expect((await ops.exec("test -e /work/ran-config", { shell: "sh", cwd: "/" })).exitCode).toBe(1);
    } finally {
      await ops.dispose();
    }
  });

  it("a pod with a writable root is refused naming readOnlyRootFilesystem, nothing run", async () => {
    const ops = cluster.operations({ pod: "plain-0", residentShells: false });
    try {
      const error = await ops
        .exec("touch /tmp/ran-plain", { shell: "sh", cwd: "/", sandbox: { network: "on" } })
        .catch((e: unknown) => e);
      expect(isOperationError(error, "not_supported")).toBe(true);
      expect((error as Error).message).toMatch(/readOnlyRootFilesystem: true/);
      expect((await ops.exec("test -e /tmp/ran-plain", { shell: "sh", cwd: "/" })).exitCode).toBe(1);
    } finally {
      await ops.dispose();
    }
  });
});
