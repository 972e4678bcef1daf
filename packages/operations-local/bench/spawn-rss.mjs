// What a large host process pays per command, and what the spawn helper saves. Node's libuv
// forks to spawn on Linux (Node 22 too), and a fork copies the page tables of the whole process
// while the event loop waits, so the time spawn() blocks grows with the host's resident memory.
// With `spawner: "helper"` the host only writes a request into a pipe: a small helper process
// forks (see docs/performance.md, "Starting processes from a large host").
//
// Measured at three sizes of resident memory (extra Buffers, their pages touched), ROUNDS rounds
// each, in the same run (medians; the event loop's longest turn as the smallest of the rounds: on
// a loaded machine a turn is lengthened whenever the process is descheduled, so the quietest
// round shows what the call itself costs):
// - spawn-blocks: how long spawn('/bin/true') itself blocks the caller;
// - exec-blocks: the longest turn of the host's event loop while ops.exec("true") runs (a
//   setImmediate loop measures the gaps), for the direct spawner and for the helper;
// - exec-true: the wall time of ops.exec("true"), direct and through the helper;
// - helper-start: the first call that starts a helper, at the largest size (the helper's own
//   start is the one fork the host pays), wall time and longest turn.
// Target: through the helper, the largest host's event loop blocks no longer than a small host's
// does with a direct spawn (helper exec-blocks at the largest size <= 1.2x direct exec-blocks at
// the smallest size: what a small host pays, with room for timer noise).
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
const BLOCK_TARGET_RATIO = 1.2;

const report = createBenchReport(import.meta.url, "spawn-rss");
const direct = createLocalOperations({ spawner: "direct" });
const helper = createLocalOperations({ spawner: "helper" });
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

/** Runs ops.exec("true"): its wall time and the longest turn of the event loop meanwhile (ms). */
async function execTrue(ops) {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  const result = await ops.exec("true", { shell: "bash", cwd });
  const wall = performance.now() - started;
  running = false;
  if (result.exitCode !== 0) throw new Error(`exec true: exit ${result.exitCode}`);
  return { wall, blocked: longest };
}

function row(name, value, params, baseline, stat = "median") {
  report.measure({
    case: name,
    metric: "time",
    unit: "ms",
    value,
    stat,
    rounds: ROUNDS,
    ...(baseline ? { baseline } : {}),
    params,
  });
}

try {
  const first = {};
  let largest;
  for (const extra of EXTRA_MB) {
    while (held.length < extra) held.push(Buffer.alloc(MB, 1));
    const rssMb = Math.round(process.memoryUsage().rss / MB);
    const samples = { spawn: [], directWall: [], directBlock: [], helperWall: [], helperBlock: [] };
    await execTrue(direct); // warm-up (and the helper's start, measured apart below)
    await execTrue(helper);
    for (let round = 0; round < ROUNDS; round++) {
      samples.spawn.push(await spawnBlocks());
      const d = await execTrue(direct);
      samples.directWall.push(d.wall);
      samples.directBlock.push(d.blocked);
      const h = await execTrue(helper);
      samples.helperWall.push(h.wall);
      samples.helperBlock.push(h.blocked);
    }
    // The turns: the quietest round; the times: the median.
    const m = Object.fromEntries(
      Object.entries(samples).map(([key, values]) => [
        key,
        key.endsWith("Block") ? Math.min(...values) : median(values),
      ]),
    );
    for (const key of Object.keys(m)) first[key] ??= { value: m[key], rss: rssMb };
    const vsSmall = (key) => ({ name: `the same at ${first[key].rss} MB RSS`, value: first[key].value });
    const params = { rssMB: rssMb };
    row("spawn-blocks", m.spawn, params, vsSmall("spawn"));
    row("exec-blocks direct", m.directBlock, params, vsSmall("directBlock"), "min");
    row("exec-blocks helper", m.helperBlock, params, vsSmall("helperBlock"), "min");
    row("exec-true direct", m.directWall, params, vsSmall("directWall"));
    row("exec-true helper", m.helperWall, params, {
      name: `direct exec at ${rssMb} MB RSS`,
      value: m.directWall,
    });
    largest = { rssMb, helperBlock: m.helperBlock };
  }
  report.measure({
    case: "exec-blocks helper, largest host vs a small host's direct spawn",
    metric: "time",
    unit: "ms",
    value: largest.helperBlock,
    stat: "min",
    rounds: ROUNDS,
    baseline: {
      name: `direct exec-blocks at ${first.directBlock.rss} MB RSS`,
      value: first.directBlock.value,
    },
    target: { op: "<=", value: BLOCK_TARGET_RATIO, of: "ratio" },
    params: { rssMB: largest.rssMb },
  });
  // The helper's own start, paid once per process (its adapters share it): the first call of a
  // fresh adapter at the largest size, once the shared helper is stopped.
  await helper.dispose();
  const fresh = createLocalOperations({ spawner: "helper" });
  const start = await execTrue(fresh);
  await fresh.dispose();
  const params = { rssMB: largest.rssMb };
  report.measure({
    case: "helper-start first exec wall",
    metric: "time",
    unit: "ms",
    value: start.wall,
    params,
  });
  report.measure({
    case: "helper-start longest turn",
    metric: "time",
    unit: "ms",
    value: start.blocked,
    params,
  });
} finally {
  held.length = 0;
  await direct.dispose();
  await helper.dispose();
  rmSync(cwd, { recursive: true, force: true });
}
