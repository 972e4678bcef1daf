// bash printing 500 MB, process peak RSS: what a user's whole process peaks at (the kernel's
// maxRSS), not what the call adds. Each round starts fresh Node processes that
//   - tool: import the tools, create them on a local context (createLocalToolContext,
//     createAllTools, default options), run one bash call printing 500 MB and wait for the
//     artifact's hash the call finishes in the background, then end the context;
//   - file: run the same command as `{ cmd; } > file` (the floor: every byte kept somewhere).
// The call's own time (from the call to its result) is compared with the file run's; the
// command is the issue's, with quotes, so it is decided by the shell policy (which parses it,
// unless its fast path reads it). Two more processes for information, without targets:
//   - tool-plain: `yes | head -c N`, words only;
//   - tool-streamed: the same command with fastPath: false (every chunk through the host).
// Targets: tool peak RSS < 96 MB (recorded as <= 95.9 at the printed precision); the call's
// time <= 1.3x the file run (minimum of interleaved rounds, as in shell.bench.mjs).
// Run `pnpm --filter @tackle/tools build` first. PEAK_RUNS changes the rounds (default 5),
// PEAK_BYTES the size.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";

const BYTES = Number(process.env.PEAK_BYTES ?? 500 * 1024 * 1024);
const RUNS = Number(process.env.PEAK_RUNS ?? 5);
const PEAK_TARGET_MB = 95.9;
const RATIO_TARGET = 1.3;
const COMMAND = `head -c ${BYTES} /dev/zero | tr '\\0' a`;
const PLAIN_COMMAND = `yes | head -c ${BYTES}`;
const dist = (file) => pathToFileURL(fileURLToPath(new URL(`../dist/${file}`, import.meta.url))).href;
const peakMb = () => process.resourceUsage().maxRSS / 1024;

if (process.argv[2] === "--child") await child(process.argv[3], process.argv[4]);
else await parent();

async function child(variant, dir) {
  if (variant === "file") {
    const { spawn } = await import("node:child_process");
    const start = performance.now();
    await new Promise((resolve, reject) => {
      const p = spawn("bash", ["-c", `{ ${COMMAND}; } > ${join(dir, "out.txt")}`], { stdio: "ignore" });
      p.on("error", reject);
      p.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
    });
    const ms = performance.now() - start;
    rmSync(join(dir, "out.txt"), { force: true });
    process.stdout.write(`${JSON.stringify({ ms, peakMb: peakMb(), ok: true })}\n`);
    return;
  }
  const tools = await import(dist("index.js"));
  const local = await import(dist("local.js"));
  const { invokeTool } = await import("@tackle/agent-core");
  const context = local.createLocalToolContext({ cwd: dir });
  const set = tools.createAllTools({
    context,
    ...(variant === "tool-streamed" ? { tools: { bash: { fastPath: false } } } : {}),
  });
  const command = variant === "tool-plain" ? PLAIN_COMMAND : COMMAND;
  const start = performance.now();
  const outcome = await invokeTool(set.bash, { command });
  const ms = performance.now() - start;
  const run = outcome.details?.run;
  const text = outcome.content.map((c) => c.text ?? "").join("");
  // The output is over the default budget: the artifact keeps its head and tail, the budget cut
  // accounts for every byte printed, the model sees the end and the note.
  const cut = run?.budgetCut;
  const ok =
    !outcome.isError &&
    cut !== undefined &&
    cut.headBytes + cut.droppedBytes + cut.tailBytes === BYTES &&
    /Exit code 0/.test(text);
  // The fast path hashes a large artifact after the result (part of what the process does); a
  // streamed run hashes as it goes, and has no hash of an artifact it cut.
  while (
    ok &&
    variant !== "tool-streamed" &&
    !context.artifacts.list().find((a) => a.path === run.artifact.path)?.sha256
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await context.dispose();
  process.stdout.write(`${JSON.stringify({ ms, peakMb: peakMb(), ok })}\n`);
}

async function parent() {
  const report = createBenchReport(import.meta.url, "shell-peak");
  const dir = mkdtempSync(join(tmpdir(), "tackle-shell-peak-"));
  const variants = ["file", "tool", "tool-plain", "tool-streamed"];
  const samples = Object.fromEntries(variants.map((v) => [v, []]));
  try {
    report.note(`command: ${COMMAND}  (${(BYTES / 1024 / 1024).toFixed(0)} MB, ${RUNS} rounds, interleaved)`);
    for (let round = 0; round < RUNS; round++) {
      const order = variants.map((_, i) => variants[(i + round) % variants.length]);
      for (const variant of order) {
        const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", variant, dir], {
          cwd: fileURLToPath(new URL("..", import.meta.url)),
          encoding: "utf8",
        });
        if (run.status !== 0) throw new Error(`${variant} failed: ${run.stderr}`);
        const result = JSON.parse(run.stdout.trim().split("\n").pop());
        if (!result.ok) throw new Error(`${variant} produced wrong output`);
        samples[variant].push(result);
      }
    }
    const file = { name: "`cmd > file`", value: Math.min(...samples.file.map((r) => r.ms)) };
    const fileMedian = { name: "`cmd > file`", value: median(samples.file.map((r) => r.ms)) };
    for (const variant of variants.slice(1)) {
      const judged = variant === "tool";
      const peaks = samples[variant].map((r) => r.peakMb);
      report.measure({
        case: `${variant}-peak-rss`,
        label: `bash printing ${(BYTES / 1024 / 1024).toFixed(0)} MB, process peak RSS (${variant})`,
        metric: "rss-peak",
        unit: "MB",
        value: Math.max(...peaks),
        stat: "max",
        rounds: RUNS,
        params: { bytes: BYTES, median: Number(median(peaks).toFixed(1)) },
        ...(judged ? { target: { op: "<=", value: PEAK_TARGET_MB, of: "value" } } : {}),
      });
      const times = samples[variant].map((r) => r.ms);
      report.measure({
        case: `${variant}-time`,
        label: `bash printing ${(BYTES / 1024 / 1024).toFixed(0)} MB, the call (${variant})`,
        metric: "time",
        unit: "ms",
        value: Math.min(...times),
        stat: "min",
        rounds: RUNS,
        baseline: file,
        ...(judged ? { target: { op: "<=", value: RATIO_TARGET, of: "ratio" } } : {}),
      });
      report.measure({
        case: `${variant}-time`,
        label: `bash printing ${(BYTES / 1024 / 1024).toFixed(0)} MB, the call (${variant}), median`,
        metric: "time",
        unit: "ms",
        value: median(times),
        stat: "median",
        rounds: RUNS,
        baseline: fileMedian,
      });
    }
    report.note(
      `file run's own process peaks at ${Math.max(...samples.file.map((r) => r.peakMb)).toFixed(1)} MB (bare Node and a spawn)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
