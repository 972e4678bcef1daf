import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { COMMAND_IN_URL_BYTES } from "../src/run-command.js";
import type { LocalPod } from "./support/local-api-server.js";
import { startTestCluster, type TestCluster } from "./support/test-cluster.js";

/** Processes of the pod's container whose command line starts with `start` (busybox ps). */
async function running(cluster: TestCluster, pod: LocalPod, start: string): Promise<string[]> {
  const out = await cluster.inContainer(pod, "ps -o pid,args");
  return out.split("\n").filter((line) =>
    line
      .trim()
      .replace(/^\d+\s+/, "")
      .startsWith(start),
  );
}

for (const v5 of [true, false]) {
  describe(`exec lifetime over ${v5 ? "v5" : "v4"}.channel.k8s.io`, () => {
    let cluster: TestCluster;
    let pod: LocalPod;
    beforeAll(async () => {
      cluster = await startTestCluster({ v5 });
      pod = await cluster.addPod("lifetime-0");
    });
    afterAll(async () => {
      await cluster?.stop();
    });

    it("every exec negotiates the protocol the server speaks", async () => {
      const ops = cluster.operations({ pod: "lifetime-0" });
      await ops.writeFile("/tmp/negotiated.txt", "x");
      await ops.exec("true", { shell: "sh", cwd: "/" });
      await ops.dispose();
      expect(cluster.api.protocols.length).toBeGreaterThan(0);
      expect(new Set(cluster.api.protocols)).toEqual(
        new Set([v5 ? "v5.channel.k8s.io" : "v4.channel.k8s.io"]),
      );
    });

    it("a process that outlives exec is ended, and the pod keeps running for the next call", async () => {
      const ops = cluster.operations({ pod: "lifetime-0" });
      const result = await ops.exec("setsid sleep 4101 & sleep 4102 & echo started", {
        shell: "sh",
        cwd: "/",
      });
      expect(result.status).toBe("completed");
      expect(result.cleanup).toMatchObject({ confirmed: true, escapesChecked: true });
      expect(await running(cluster, pod, "sleep 410")).toEqual([]);
      const next = await ops.exec("echo next", { shell: "sh", cwd: "/" });
      expect(next).toMatchObject({ status: "completed", exitCode: 0 });
      await ops.dispose();
    });

    it("a dropped connection leaves nothing of the command running (the watchdog in the pod ends it)", async () => {
      const ops = cluster.operations({ pod: "lifetime-0" });
      await ops.connect();
      let started!: () => void;
      const seen = new Promise<void>((resolve) => {
        started = resolve;
      });
      const call = ops.exec("setsid sleep 4201 & sleep 4202 & echo started; wait", {
        shell: "sh",
        cwd: "/",
        onChunk: (chunk) => {
          if (Buffer.from(chunk.bytes).toString().includes("started")) started();
        },
      });
      await seen;
      expect(await running(cluster, pod, "sleep 420")).toHaveLength(2);
      cluster.api.dropConnections();
      const result = await call;
      expect(result.status).toBe("unknown");
      expect(result.cleanup.confirmed).toBe(false);
      expect(result.cleanup.note).toMatch(/closed without a status/);
      await vi.waitFor(async () => expect(await running(cluster, pod, "sleep 420")).toEqual([]), {
        timeout: 15_000,
        interval: 200,
      });
      // The adapter goes on: the next call opens new connections.
      expect(await ops.exec("echo again", { shell: "sh", cwd: "/" })).toMatchObject({ status: "completed" });
      await ops.dispose();
    });

    it("an idle resident shell ends when its connection drops", async () => {
      const ops = cluster.operations({ pod: "lifetime-0" });
      await ops.stat("/");
      const shells = async () =>
        (await running(cluster, pod, "sh -c ")).filter((line) => line.includes("while IFS= read"));
      const shellsBefore = await shells();
      expect(shellsBefore.length).toBeGreaterThan(0);
      cluster.api.dropConnections();
      await vi.waitFor(async () => expect(await shells()).toEqual([]), { timeout: 15_000, interval: 200 });
      expect((await ops.stat("/")).type).toBe("directory");
      await ops.dispose();
    });
  });
}

describe("a command longer than an exec URL may carry", () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startTestCluster();
    await cluster.addPod("long-0");
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("goes to the wrapper on stdin, byte-exact, and runs", async () => {
    const ops = cluster.operations({ pod: "long-0" });
    // 90 KB of command: far past any URL limit, under the kernel's 128 KiB for one argument
    // (the command reaches sh -c as one); multi-byte characters and quotes in it.
    const payload = "é'\"$x".repeat(10_000);
    const command = `printf '%s' '${payload.replaceAll("'", "'\\''")}' | wc -c`;
    expect(Buffer.byteLength(command)).toBeGreaterThan(COMMAND_IN_URL_BYTES * 30);
    const chunks: string[] = [];
    const result = await ops.exec(command, {
      shell: "sh",
      cwd: "/",
      onChunk: (c) => chunks.push(Buffer.from(c.bytes).toString()),
    });
    expect(result).toMatchObject({ status: "completed", exitCode: 0 });
    expect(chunks.join("").trim()).toBe(String(Buffer.byteLength(payload)));
    await ops.dispose();
  });
});
