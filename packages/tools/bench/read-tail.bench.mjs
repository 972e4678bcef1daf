// read: the last 50 lines of a 1 GiB file (READ_TAIL_BYTES to change), with exact totals.
// - time: the read tool vs `tail -n +N FILE | head -n 50` (which also reads up to line N) in the
//   same rounds; target ratio <= 2.
// - memory: peak RSS the read adds to a process that already imported and created the tools
//   (each tool read runs in its own child process: maxRSS after minus RSS before); target < 64 MB.
// Run `pnpm --filter @tackle/tools build` first. READ_TAIL_RUNS changes the rounds (default 5).
import { spawnSync } from "node:child_process";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { measureAddedRss } from "../../../scripts/bench/memory.mjs";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";

const TARGET_BYTES = Number(process.env.READ_TAIL_BYTES ?? 1024 * 1024 * 1024);
const RUNS = Number(process.env.READ_TAIL_RUNS ?? 5);
const TAIL_LINES = 50;

if (process.argv[2] === "--child") {
  await child(process.argv[3], Number(process.argv[4]));
} else {
  await parent();
}

async function parent() {
  const report = createBenchReport(import.meta.url, "read-tail");
  const dir = await mkdtemp(join(tmpdir(), "tackle-read-tail-"));
  const file = join(dir, "big.log");
  try {
    const lines = await generate(file);
    await writeFile(join(dir, "small.txt"), "warm\nup\n");
    report.note(`file: ${(TARGET_BYTES / 1024 / 1024).toFixed(0)} MB, ${lines} lines`);
    const first = lines - TAIL_LINES + 1;
    const shell = `tail -n +${first} '${file}' | head -n ${TAIL_LINES}`;
    const tool = [];
    const raw = [];
    const added = [];
    for (let round = 0; round < RUNS; round++) {
      const rawRun = () => {
        const start = performance.now();
        const out = spawnSync("bash", ["-c", shell], { encoding: "utf8", maxBuffer: 1 << 20 });
        raw.push(performance.now() - start);
        if (!out.stdout.startsWith(`${first} `)) throw new Error("tail | head printed the wrong lines");
      };
      const toolRun = () => {
        const run = spawnSync(
          process.execPath,
          ["--expose-gc", fileURLToPath(import.meta.url), "--child", file, String(lines)],
          { encoding: "utf8" },
        );
        if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
        const result = JSON.parse(run.stdout.trim().split("\n").pop());
        if (!result.ok) throw new Error(`read showed the wrong lines: ${result.notice ?? result.lastLine}`);
        tool.push(result.ms);
        added.push(result.addedMb);
      };
      if (round % 2 === 0) {
        rawRun();
        toolRun();
      } else {
        toolRun();
        rawRun();
      }
    }
    const params = { bytes: TARGET_BYTES, lines: TAIL_LINES };
    report.measure({
      case: "read-tail",
      metric: "time",
      unit: "ms",
      value: median(tool),
      stat: "median",
      rounds: RUNS,
      baseline: { name: `tail -n +N | head -n ${TAIL_LINES}`, value: median(raw) },
      target: { op: "<=", value: 2, of: "ratio" },
      params,
    });
    report.measure({
      case: "read-tail",
      metric: "rss-added",
      unit: "MB",
      value: Math.max(...added),
      stat: "max",
      rounds: RUNS,
      target: { op: "<=", value: 64, of: "value" },
      params,
      label: "read-tail: peak RSS added over a process with the tools created",
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes ~TARGET_BYTES of numbered log lines; returns the line count. */
async function generate(file) {
  const handle = await open(file, "w");
  let lines = 0;
  let bytes = 0;
  try {
    while (bytes < TARGET_BYTES) {
      const parts = [];
      for (let i = 0; i < 20_000; i++) {
        lines++;
        parts.push(
          `${lines} 2026-11-29T12:00:00Z INFO request handled path=/api/items/${lines % 997} status=200\n`,
        );
      }
      const block = Buffer.from(parts.join(""));
      await handle.write(block);
      bytes += block.length;
    }
  } finally {
    await handle.close();
  }
  return lines;
}

async function child(file, lines) {
  const { invokeTool } = await import("@tackle/agent-core");
  const { createTool } = await import("../dist/index.js");
  const { createLocalToolContext } = await import("../dist/local.js");
  const dir = file.slice(0, file.lastIndexOf("/"));
  const read = createTool("read", { context: createLocalToolContext({ cwd: dir }) });
  // Warm up on a small read so module loading and JIT are in the baseline, not in the measurement.
  await invokeTool(read, { path: "small.txt", limit: 5 });
  const measured = await measureAddedRss(async () => {
    const start = performance.now();
    const outcome = await invokeTool(read, {
      path: "big.log",
      offset: lines - TAIL_LINES + 1,
      limit: TAIL_LINES,
    });
    return { outcome, ms: performance.now() - start };
  });
  const { outcome, ms } = measured.result;
  const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  const shown = text.split("\n").filter((line) => /^\d+\t/.test(line));
  const ok =
    !outcome.isError && shown.length === TAIL_LINES && shown.at(-1).startsWith(`${lines}\t${lines} `);
  console.log(
    JSON.stringify({
      addedMb: measured.addedMb,
      ms,
      ok,
      lastLine: shown.at(-1)?.slice(0, 60),
      notice: outcome.isError ? text : null,
    }),
  );
}
