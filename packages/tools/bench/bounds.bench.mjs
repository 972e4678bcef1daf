// Bounds benchmark (issue 19): one case per kind of hostile call, each against a raw baseline
// where one exists (plain Node, the bundled ripgrep), with the peak RSS of each side. Every side
// of every round runs in its own Node process, so a peak RSS is that side's alone (the kernel's
// maxRSS of the process; a child such as rg or the shell is not counted on either side).
//
//   validation     edit with `edits: [0, 1, ..., N-1]` (numbers, not objects) through invokeTool,
//                  vs plain Node parsing the same arguments from their JSON text
//   grep-long-line grep `x`, limit 5, on one line of 1 MB of `x` (BOUNDS_LINE_MB), vs raw rg on
//                  the same file with its output read by plain Node
//   shell-output   bash `yes | head -c 4*BUDGET` through an output budget of 64 MB
//                  (BOUNDS_OUTPUT_MB): the artifact keeps head and tail, the middle is dropped;
//                  vs plain Node running the same `yes | head -c 4*BUDGET > file`
//   error-text     read of a 1 MB path, vs plain Node's readFile of it (ENAMETOOLONG)
//   throwing-args  1,000 calls whose arguments are a Proxy that throws (no baseline: plain
//                  code would reject)
//   read-beside    a small read started beside grep through 6 files of one 8 MB line each, vs
//                  the same read alone; plus the largest event-loop lag during the pair
//
// Every case also checks its outcome (code, text size), so a regression fails the bench.
// Run `pnpm --filter @tackle/tools build` first (this imports ../dist), then:
//   pnpm --filter @tackle/tools bench bounds          (BOUNDS_ROUNDS, default 3)
// JSON lines (tackle-bench/1) in bench/results/bounds.jsonl.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";

const ROUNDS = Number(process.env.BOUNDS_ROUNDS ?? 3);
const LINE_MB = Number(process.env.BOUNDS_LINE_MB ?? 1);
const OUTPUT_MB = Number(process.env.BOUNDS_OUTPUT_MB ?? 64);
const VALIDATION_N = 60_000;
const PATH_CHARS = 1024 * 1024;
const THROWING_CALLS = 1000;

const argv = process.argv.slice(2);

if (argv[0] === "--side") {
  await runSide(argv[1], argv[2], argv[3]);
} else {
  await main();
}

/** The parent: fixtures, then each case's sides in alternating child processes. */
async function main() {
  const report = createBenchReport(import.meta.url, "bounds");
  const workspace = await realpath(await mkdtemp(join(tmpdir(), "tackle-bounds-bench-")));
  try {
    await writeFile(join(workspace, "small.txt"), "one\ntwo\nthree\n");
    const line = Buffer.alloc(LINE_MB * 1024 * 1024 + 1, "x");
    line[line.length - 1] = 0x0a;
    await mkdir(join(workspace, "long"));
    await writeFile(join(workspace, "long", "line.txt"), line);
    const huge = Buffer.alloc(8 * 1024 * 1024 + 1, "x");
    huge[huge.length - 1] = 0x0a;
    await mkdir(join(workspace, "huge"));
    for (let i = 0; i < 6; i++) await writeFile(join(workspace, "huge", `line-${i}.txt`), huge);

    const cases = [
      ["validation", "plain Node JSON.parse"],
      ["grep-long-line", "raw rg"],
      ["shell-output", "plain Node yes | head -c"],
      ["error-text", "plain Node readFile"],
      ["throwing-args", null],
      ["read-beside", "the same read alone"],
    ];
    for (const [name, baselineName] of cases) {
      const tool = [];
      const raw = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate which side goes first: neighbours share the page cache and the CPUs.
        const order = round % 2 === 0 ? ["tool", "raw"] : ["raw", "tool"];
        for (const side of order) {
          if (side === "raw" && baselineName === null) continue;
          (side === "tool" ? tool : raw).push(await child(name, side, workspace));
        }
      }
      const ms = median(tool.map((r) => r.ms));
      const rawMs = baselineName ? median(raw.map((r) => r.ms)) : undefined;
      const rss = Math.max(...tool.map((r) => r.peakRssMb));
      const rawRss = baselineName ? Math.max(...raw.map((r) => r.peakRssMb)) : undefined;
      const params = tool[0].params ?? {};
      report.measure({
        case: name,
        metric: "time",
        unit: "ms",
        value: ms,
        stat: "median",
        rounds: ROUNDS,
        ...(baselineName ? { baseline: { name: baselineName, value: rawMs } } : {}),
        params,
      });
      report.measure({
        case: name,
        metric: "peak RSS",
        unit: "MB",
        value: rss,
        stat: "max",
        rounds: ROUNDS,
        ...(baselineName ? { baseline: { name: baselineName, value: rawRss } } : {}),
        params,
      });
      for (const [metric, unit] of [
        ["event-loop lag", "ms"],
        ["text", "chars"],
        ["artifact", "MB"],
      ]) {
        const values = tool.map((r) => r.extra?.[metric]).filter((v) => v !== undefined);
        if (values.length > 0)
          report.measure({
            case: name,
            metric,
            unit,
            value: Math.max(...values),
            stat: "max",
            rounds: ROUNDS,
            params,
          });
      }
    }
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

/** Runs one side of one case in a fresh Node process; returns what it printed. */
function child(name, side, workspace) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), "--side", name, side, workspace], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.setEncoding("utf8").on("data", (text) => {
      out += text;
    });
    proc.on("error", reject);
    proc.on("close", (code) => {
      if (code !== 0) reject(new Error(`${name} ${side} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split("\n").at(-1)));
    });
  });
}

/** One side of one case, in this process: prints `{ms, peakRssMb, params, extra}` as JSON. */
async function runSide(name, side, workspace) {
  const { invokeTool } = await import("@tackle/agent-core");
  const { createAllTools } = await import("../dist/index.js");
  const { createLocalToolContext } = await import("../dist/local.js");
  const context = createLocalToolContext({ cwd: workspace });
  const tools = createAllTools({
    context,
    tools: { bash: { maxOutputBytes: OUTPUT_MB * 1024 * 1024 } },
  });
  const expectCode = (outcome, code) => {
    const got = outcome.isError ? outcome.errorCode : "ok";
    if (got !== code)
      throw new Error(`${name}: expected ${code}, got ${got}: ${textOf(outcome).slice(0, 300)}`);
  };
  let params = {};
  let extra = {};
  let lag;
  const start = performance.now();
  switch (`${name}/${side}`) {
    case "validation/tool": {
      params = { n: VALIDATION_N };
      const outcome = await invokeTool(tools.edit, { path: "small.txt", edits: numbers(VALIDATION_N) });
      expectCode(outcome, "invalid_arguments");
      extra = { text: textOf(outcome).length };
      break;
    }
    case "validation/raw":
      params = { n: VALIDATION_N };
      JSON.parse(JSON.stringify({ path: "small.txt", edits: numbers(VALIDATION_N) }));
      break;
    case "grep-long-line/tool": {
      params = { lineMb: LINE_MB, limit: 5 };
      lag = startLag();
      const outcome = await invokeTool(tools.grep, { pattern: "x", path: "long", limit: 5 });
      expectCode(outcome, "ok");
      extra = { text: textOf(outcome).length };
      break;
    }
    case "grep-long-line/raw":
      params = { lineMb: LINE_MB, limit: 5 };
      await collect(await bundledRg(), ["--no-config", "x", join(workspace, "long")]);
      break;
    case "shell-output/tool": {
      params = { budgetMb: OUTPUT_MB };
      const outcome = await invokeTool(tools.bash, {
        command: `yes 0123456789abcdef | head -c ${4 * OUTPUT_MB * 1024 * 1024}`,
        timeout: 120,
      });
      expectCode(outcome, "ok");
      if (!outcome.details?.run?.budgetCut) throw new Error("shell-output: the output was not cut");
      const artifact = outcome.details?.run?.artifact?.path;
      extra = {
        text: textOf(outcome).length,
        artifact: artifact && existsSync(artifact) ? (await stat(artifact)).size / 2 ** 20 : 0,
      };
      if (artifact) await rm(dirname(artifact), { recursive: true, force: true });
      break;
    }
    case "shell-output/raw": {
      params = { budgetMb: OUTPUT_MB };
      const file = join(workspace, `raw-${process.pid}.out`);
      await collect("sh", [
        "-c",
        `yes 0123456789abcdef | head -c ${4 * OUTPUT_MB * 1024 * 1024} > '${file}'`,
      ]);
      await rm(file, { force: true });
      break;
    }
    case "error-text/tool": {
      params = { pathChars: PATH_CHARS };
      const outcome = await invokeTool(tools.read, { path: "x".repeat(PATH_CHARS) });
      if (!outcome.isError) throw new Error("error-text: the read succeeded");
      extra = { text: textOf(outcome).length };
      break;
    }
    case "error-text/raw":
      params = { pathChars: PATH_CHARS };
      await readFile(join(workspace, "x".repeat(PATH_CHARS))).catch((error) => error);
      break;
    case "throwing-args/tool": {
      params = { calls: THROWING_CALLS };
      const hostile = new Proxy(
        {},
        {
          get() {
            throw new Error("boom");
          },
          ownKeys() {
            throw new Error("boom");
          },
        },
      );
      for (let i = 0; i < THROWING_CALLS; i++)
        expectCode(await invokeTool(tools.read, hostile), "invalid_arguments");
      break;
    }
    case "read-beside/tool": {
      params = { slow: "grep 6 x 8 MB lines" };
      lag = startLag();
      const slow = invokeTool(tools.grep, { pattern: "x", path: "huge" });
      const readStart = performance.now();
      expectCode(await invokeTool(tools.read, { path: "small.txt" }), "ok");
      const readMs = performance.now() - readStart;
      expectCode(await slow, "ok");
      extra = { "event-loop lag": lag.stop() };
      lag = undefined;
      await context.dispose();
      process.stdout.write(`${JSON.stringify({ ms: readMs, peakRssMb: peakRssMb(), params, extra })}\n`);
      return;
    }
    case "read-beside/raw": {
      params = { slow: "grep 6 x 8 MB lines" };
      await invokeTool(tools.read, { path: "small.txt" }); // the first call loads the tool's modules
      const readStart = performance.now();
      expectCode(await invokeTool(tools.read, { path: "small.txt" }), "ok");
      const readMs = performance.now() - readStart;
      await context.dispose();
      process.stdout.write(`${JSON.stringify({ ms: readMs, peakRssMb: peakRssMb(), params, extra })}\n`);
      return;
    }
    default:
      throw new Error(`unknown case ${name}/${side}`);
  }
  const ms = performance.now() - start;
  if (lag) extra["event-loop lag"] = lag.stop();
  await context.dispose();
  process.stdout.write(`${JSON.stringify({ ms, peakRssMb: peakRssMb(), params, extra })}\n`);
}

function numbers(n) {
  return Array.from({ length: n }, (_, i) => i);
}

function textOf(outcome) {
  return outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** Peak resident set of this process so far, in MB. */
function peakRssMb() {
  return process.resourceUsage().maxRSS / 1024;
}

/** Largest delay of a 10 ms timer: how long the event loop was blocked at most. */
function startLag(intervalMs = 10) {
  let expected = performance.now() + intervalMs;
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - expected);
    expected = now + intervalMs;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(worst, performance.now() - expected);
    },
  };
}

/** Runs a program and reads all its stdout (what plain Node does with a child's output). */
function collect(file, args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(file, args, { stdio: ["ignore", "pipe", "ignore"] });
    const chunks = [];
    proc.stdout.on("data", (chunk) => chunks.push(chunk));
    proc.on("error", reject);
    proc.on("close", () => resolve(Buffer.concat(chunks)));
  });
}

async function bundledRg() {
  const fromTools = createRequire(import.meta.url);
  const fromLocal = createRequire(fromTools.resolve("@tackle/operations-local/package.json"));
  return (await import(fromLocal.resolve("@vscode/ripgrep"))).rgPath;
}
