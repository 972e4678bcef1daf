import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { NAMESPACE, startTestCluster, type TestCluster } from "./support/test-cluster.js";

const run = promisify(execFile);
let cluster: TestCluster;
let dir: string;

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.addPod("agent-box-0", { labels: { app: "agent-box" } });
  await cluster.addPod("agent-box-1", { labels: { app: "agent-box" } });
  await cluster.addPod("other-0", { labels: { app: "other" } });
  dir = await mkdtemp(join(tmpdir(), "tackle-k8s-guide-"));
});
afterAll(async () => {
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("the guide's program runs one session in every pod the selector matches, as shown", async () => {
  const kubeconfig = join(dir, "config");
  await writeFile(kubeconfig, cluster.api.kubeconfigYaml({ namespace: NAMESPACE }));
  // Node strips the program's types itself (22.6+ with the flag), as `npx tsx` would.
  const { stdout } = await run(
    process.execPath,
    [
      "--experimental-strip-types",
      "--no-warnings",
      join(import.meta.dirname, "..", "examples", "sessions-on-pods.ts"),
    ],
    {
      env: { ...process.env, KUBECONFIG: kubeconfig, NAMESPACE, SELECTOR: "app=agent-box" },
      timeout: 60_000,
    },
  );
  const sessions = stdout.split(/^--- /m).filter(Boolean).sort();
  expect(sessions.map((block) => block.split("\n")[0])).toEqual(["agent-box-0", "agent-box-1"]);
  const bytes = String("# session on agent-box-0\n".length);
  for (const block of sessions) {
    expect(block.split("\n")).toContain(bytes);
    expect(block).toContain("Exit code 0");
  }
});
