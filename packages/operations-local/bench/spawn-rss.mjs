// What a large host process pays per command: Node 20's libuv forks to spawn on Linux, and a
// fork copies the page tables of the whole process while the event loop waits, so the time
// spawn() blocks grows with the host's resident memory, and every `exec` (and every ripgrep
// search) of the local adapter pays it. Information, no target: the fix is where the tools run
// (see docs/performance.md, "Starting processes from a large host").
//
// Measured at three sizes of resident memory (extra Buffers, their pages touched): how long
// spawn('/bin/true') blocks the caller, and the wall time of ops.exec("true"); medians of ROUNDS,
// each size against the smallest.
// Run after `pnpm --filter @tackle/operations-local build`:
//   node packages/operations-local/bench/spawn-rss.mjs
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";
import { createLocalOperations } from "../dist/index.js";

const ROUNDS = Number(process.env.SPAWN_RSS_ROUNDS ?? 15);
const EXTRA_MB = [0, 150, 350];
const MB = 1024 * 1024;

const report = createBenchReport(import.meta.url, "spawn-rss");
const ops = createLocalOperations();
const cwd = mkdtempSync(join(tmpdir(), "tackle-spawn-rss-"));
const held = [];

/** Milliseconds spawn() itself takes (the caller is blocked for all of it); waits for the exit. */
async function spawnBlocks() {
  const started = performance.now();
  const child = spawn("/bin/true", { stdio: "ignore" });
  const blocked = performance.now() - started;
  await new Promise((resolve) => child.on("close", resolve));
  return blocked;
}

async function execWall() {
  const started = performance.now();
  const result = await ops.exec("true", { shell: "bash", cwd });
  if (result.exitCode !== 0) throw new Error(`exec true: exit ${result.exitCode}`);
  return performance.now() - started;
}

try {
  const first = {};
  for (const extra of EXTRA_MB) {
    while (held.length < extra) held.push(Buffer.alloc(MB, 1));
    const rssMb = Math.round(process.memoryUsage().rss / MB);
    const blocked = [];
    const wall = [];
    await execWall(); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      blocked.push(await spawnBlocks());
      wall.push(await execWall());
    }
    const row = { spawn: median(blocked), exec: median(wall) };
    first.spawn ??= { value: row.spawn, rss: rssMb };
    first.exec ??= { value: row.exec, rss: rssMb };
    const params = { rssMB: rssMb };
    report.measure({
      case: "spawn-blocks",
      metric: "time",
      unit: "ms",
      value: row.spawn,
      stat: "median",
      rounds: ROUNDS,
      baseline: { name: `the same at ${first.spawn.rss} MB RSS`, value: first.spawn.value },
      params,
    });
    report.measure({
      case: "exec-true",
      metric: "time",
      unit: "ms",
      value: row.exec,
      stat: "median",
      rounds: ROUNDS,
      baseline: { name: `the same at ${first.exec.rss} MB RSS`, value: first.exec.value },
      params,
    });
  }
} finally {
  held.length = 0;
  rmSync(cwd, { recursive: true, force: true });
}
