// What the sandbox adds to a command: the wall time of ops.exec("true") in bash, unsandboxed and
// sandboxed (bubblewrap, network off), alternating in the same run, median of ROUNDS each; and the
// same with the network as an allow list (the proxy and its relay start for each call). Target:
// the sandbox adds at most 15 ms to `bash true` (network off). Linux with bwrap only.
// Where the time goes, in the same rounds: `bash -c true` and bubblewrap around it (the adapter's
// own arguments: namespaces, mounts, hidden paths, seccomp; `setsid` inside) spawned directly,
// without the adapter. Their difference is bubblewrap's own cost; what the sandboxed call adds
// beyond it is the adapter's (the profile's lookups, the exec machinery, the wait for the end).
// Run after `pnpm --filter @tackle/operations-local build`:
//   node packages/operations-local/bench/sandbox.mjs
import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, openSync, realpathSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { bwrapArguments, resolveSandboxProfile, seccompProgram } from "@tackle/operations/adapter";
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

/** The profile's view of this disk (what the adapter's own lookups answer). */
const facts = {
  lstat: async (path) => {
    try {
      const info = lstatSync(path);
      return info.isSymbolicLink() ? "link" : info.isDirectory() ? "dir" : "file";
    } catch {
      return undefined;
    }
  },
  stat: async (path) => {
    try {
      return statSync(path).isDirectory() ? "dir" : "file";
    } catch {
      return undefined;
    }
  },
  realpath: async (path) => {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  },
  userHome: homedir(),
};

/** bubblewrap with the very arguments the adapter gives it for `bash -c true` (network off). */
const profile = await resolveSandboxProfile({ writable: [cwd] }, process.env.HOME, facts);
const raw = bwrapArguments(profile, { cwd, seccomp: true });
const RAW_BWRAP = [...raw.args, "setsid", "bash", "-c", "true"];
const SECCOMP = seccompProgram();
const devNull = openSync("/dev/null", "r");

/**
 * Wall time of spawning `file args` until it exits (no adapter); for bwrap, the seccomp program
 * on a pipe at descriptor 3 and /dev/null on the hidden files' descriptors, as the adapter does.
 */
function spawnWall(file, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const sandboxed = file === "bwrap";
    const stdio = sandboxed
      ? ["ignore", "ignore", "ignore", "pipe", ...Array(raw.hiddenFileFds).fill(devNull)]
      : "ignore";
    const child = spawn(file, args, { stdio, cwd });
    if (sandboxed) child.stdio[3].end(SECCOMP);
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${file}: exit ${code}`)),
    );
  });
}

async function execWall(sandbox) {
  const started = performance.now();
  const result = await ops.exec("true", { shell: "bash", cwd, sandbox });
  if (result.exitCode !== 0) throw new Error(`exec true: exit ${result.exitCode}`);
  return performance.now() - started;
}

try {
  const times = { plain: [], sandboxed: [], allowList: [], rawBash: [], rawBwrap: [] };
  for (const sandbox of Object.values(modes)) await execWall(sandbox); // warm-up (first probe)
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, sandbox] of Object.entries(modes)) times[name].push(await execWall(sandbox));
    times.rawBash.push(await spawnWall("bash", ["-c", "true"]));
    times.rawBwrap.push(await spawnWall("bwrap", RAW_BWRAP));
  }
  const rawBash = median(times.rawBash);
  const rawBwrap = median(times.rawBwrap);
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
    case: "raw-bwrap-bash-true",
    metric: "time",
    unit: "ms",
    value: rawBwrap,
    stat: "median",
    rounds: ROUNDS,
    baseline: { name: "raw bash -c true (spawned without the adapter)", value: rawBash },
  });
  report.measure({
    case: "sandbox-added-beyond-bwrap",
    metric: "time",
    unit: "ms",
    value: sandboxed - plain - (rawBwrap - rawBash),
    stat: "median",
    rounds: ROUNDS,
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
