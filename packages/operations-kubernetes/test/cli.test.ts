import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { NAMESPACE, startTestCluster, type TestCluster } from "./support/test-cluster.js";

/** The CLI's built binary (pnpm build makes it; `pnpm check` builds before the tests run). */
const BIN = join(import.meta.dirname, "..", "..", "cli", "dist", "bin.js");

let cluster: TestCluster;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the CLI first (pnpm build)`);
  cluster = await startTestCluster();
  await cluster.addPod("cli-0", { containers: ["main", "side"] });
  dir = await mkdtemp(join(tmpdir(), "tackle-k8s-cli-"));
  kubeconfig = join(dir, "config");
  await writeFile(kubeconfig, cluster.api.kubeconfigYaml({ namespace: "default", context: "local" }));
});
afterAll(async () => {
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs `tackle ARGS` on this Node with the endpoint's kubeconfig; resolves with the exit code and output. */
function tackle(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: { ...process.env, KUBECONFIG: kubeconfig, TACKLE_AUDIT_FILE: join(dir, "audit.jsonl") },
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

it("tackle tool runs in the pod --env k8s:// names (namespace/pod, context/namespace/pod, and a container)", async () => {
  const mark = "echo in-$HOSTNAME-$(pwd)";
  const plain = await tackle([
    "tool",
    "bash",
    JSON.stringify({ command: mark }),
    "--env",
    `k8s://${NAMESPACE}/cli-0`,
    "--cwd",
    "/tmp",
  ]);
  expect(plain.stderr).toBe("");
  expect(plain.code).toBe(0);
  expect(plain.stdout).toContain("-/tmp");
  const withContext = await tackle([
    "tool",
    "bash",
    JSON.stringify({ command: "echo ok" }),
    "--env",
    `k8s://local/${NAMESPACE}/cli-0`,
  ]);
  expect(withContext).toMatchObject({ code: 0 });
  expect(withContext.stdout).toContain("ok");
  const side = await tackle([
    "tool",
    "bash",
    JSON.stringify({ command: "hostname" }),
    "--env",
    `k8s://${NAMESPACE}/cli-0/side`,
  ]);
  expect(side.code).toBe(0);
  const main = await tackle([
    "tool",
    "bash",
    JSON.stringify({ command: "hostname" }),
    "--env",
    `k8s://${NAMESPACE}/cli-0/main`,
  ]);
  // Two containers of one pod are two Docker containers here: their hostnames differ.
  expect(side.stdout).not.toBe(main.stdout);
});

it("a missing pod is an environment error naming the kubectl step", async () => {
  const result = await tackle([
    "tool",
    "bash",
    JSON.stringify({ command: "true" }),
    "--env",
    `k8s://${NAMESPACE}/nope-0`,
  ]);
  expect(result.code).toBe(3);
  expect(result.stderr).toContain(`kubectl --context local -n ${NAMESPACE} get pod nope-0`);
});
