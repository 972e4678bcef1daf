// What the sandbox adds to a command: the wall time of ops.exec("true") in bash, unsandboxed and
// sandboxed (bubblewrap, network off), alternating in the same run, median of ROUNDS each; and the
// same with the network as an allow list (the proxy and its relay start for each call). Target:
// the sandbox adds at most 15 ms to `bash true` (network off). Linux with bwrap only.
// Run after `pnpm --filter @tackle/operations-local build`:
//   node packages/operations-local/bench/sandbox.mjs
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";
import { createLocalOperations } from "../dist/index.js";

const ROUNDS = Number(process.env.SANDBOX_BENCH_ROUNDS ?? 30);
/** The target: milliseconds the sandbox may add to `bash true`. */
const ADDED_TARGET_MS = 15;

const report = createBenchReport(import.meta.url, "sandbox");
if (process.platform !== "linux" || !existsSync("/usr/bin/bwrap")) {
  report.note("skipped: the sandbox needs Linux with bubblewrap (/usr/bin/bwrap)");
  process.exit(0);
}
const cwd = realpathSync(mkdtempSync(join(tmpdir(), "tackle-bench-sandbox-")));
const ops = createLocalOperations();
const modes = {
  plain: false,
  sandboxed: { writable: [cwd] },
  allowList: { writable: [cwd], network: { allow: ["registry.npmjs.org"] } },
};

async function execWall(sandbox) {
  const started = performance.now();
  const result = await ops.exec("true", { shell: "bash", cwd, sandbox });
  if (result.exitCode !== 0) throw new Error(`exec true: exit ${result.exitCode}`);
  return performance.now() - started;
}

try {
  const times = { plain: [], sandboxed: [], allowList: [] };
  for (const sandbox of Object.values(modes)) await execWall(sandbox); // warm-up (first probe)
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, sandbox] of Object.entries(modes)) times[name].push(await execWall(sandbox));
  }
  const plain = median(times.plain);
  const sandboxed = median(times.sandboxed);
  const allowList = median(times.allowList);
  report.measure({
    case: "bash-true-plain",
    metric: "time",
    unit: "ms",
    value: plain,
    stat: "median",
    rounds: ROUNDS,
  });
  report.measure({
    case: "bash-true-sandboxed",
    metric: "time",
    unit: "ms",
    value: sandboxed,
    stat: "median",
    rounds: ROUNDS,
    baseline: { name: "unsandboxed bash true", value: plain },
  });
  report.measure({
    case: "sandbox-added",
    metric: "time",
    unit: "ms",
    value: sandboxed - plain,
    stat: "median",
    rounds: ROUNDS,
    target: { op: "<=", value: ADDED_TARGET_MS, of: "value" },
  });
  report.measure({
    case: "bash-true-allow-list",
    metric: "time",
    unit: "ms",
    value: allowList,
    stat: "median",
    rounds: ROUNDS,
    baseline: { name: "unsandboxed bash true", value: plain },
  });
} finally {
  await ops.dispose();
  rmSync(cwd, { recursive: true, force: true });
}
