// Memory of a process that imported the tools and created them, before any work: peak RSS
// (the kernel's maxRSS) of a fresh Node process per stage, against a bare `node -e ""` in the
// same rounds. Target: <= 55 MB peak for "created" (all nine tools on a local context).
// Stages (each its own process): bare node; `import "@tackle/tools"`; + `@tackle/tools/local`;
// + a local context and createAllTools; + one small read and one `true` through bash (what the
// first calls load). MEMORY_RUNS changes the rounds (default 5).
// Run `pnpm --filter @tackle/tools build` first.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";

const RUNS = Number(process.env.MEMORY_RUNS ?? 5);
const dist = (file) => pathToFileURL(fileURLToPath(new URL(`../dist/${file}`, import.meta.url))).href;

const report = createBenchReport(import.meta.url, "memory");
const dir = mkdtempSync(join(tmpdir(), "tackle-memory-bench-"));
writeFileSync(join(dir, "file.txt"), "one\ntwo\nthree\n");
const print = "console.log(process.resourceUsage().maxRSS)";
const stages = {
  bare: `${print}`,
  import: `await import(${JSON.stringify(dist("index.js"))}); ${print}`,
  "import-local": `await import(${JSON.stringify(dist("index.js"))}); await import(${JSON.stringify(dist("local.js"))}); ${print}`,
  created: `const t = await import(${JSON.stringify(dist("index.js"))}); const l = await import(${JSON.stringify(dist("local.js"))});
    const context = l.createLocalToolContext({ cwd: ${JSON.stringify(dir)} }); globalThis.tools = t.createAllTools({ context }); ${print}`,
  "first-calls": `const t = await import(${JSON.stringify(dist("index.js"))}); const l = await import(${JSON.stringify(dist("local.js"))});
    const { invokeTool } = await import("@tackle/agent-core");
    const context = l.createLocalToolContext({ cwd: ${JSON.stringify(dir)} }); const tools = t.createAllTools({ context });
    const a = await invokeTool(tools.read, { path: "file.txt" }); const b = await invokeTool(tools.bash, { command: "true" });
    if (a.isError || b.isError) throw new Error(JSON.stringify([a.content, b.content]));
    await context.dispose(); ${print}`,
};
try {
  const samples = Object.fromEntries(Object.keys(stages).map((name) => [name, []]));
  for (let round = 0; round < RUNS; round++) {
    for (const [name, code] of Object.entries(stages)) {
      const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        encoding: "utf8",
      });
      if (run.status !== 0) throw new Error(`${name} failed: ${run.stderr}`);
      samples[name].push(Number(run.stdout.trim().split("\n").pop()) / 1024);
    }
  }
  const bare = { name: 'bare node -e ""', value: median(samples.bare) };
  for (const name of Object.keys(stages)) {
    if (name === "bare") continue;
    report.measure({
      case: `rss-${name}`,
      metric: "rss-peak",
      unit: "MB",
      value: median(samples[name]),
      stat: "median",
      rounds: RUNS,
      baseline: bare,
      ...(name === "created" ? { target: { op: "<=", value: 55, of: "value" } } : {}),
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
