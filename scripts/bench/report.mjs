// One reporter for every benchmark of the repo: a human line per measurement on stdout and one
// JSON object per measurement (format "tackle-bench/1", documented in docs/performance.md) in
// `<package>/bench/results/<bench>.jsonl`, rewritten on each run. With `--json` the JSON lines go
// to stdout instead of the text (the text then goes to stderr), so `pnpm bench -- --json` can be
// piped into a chart.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Version of the JSON line format. Bump only with a documented change in docs/performance.md. */
export const BENCH_SCHEMA = "tackle-bench/1";

/**
 * A reporter for one benchmark file. `benchUrl` is the bench file's `import.meta.url`: the package
 * is the one whose `bench/` folder holds it.
 *
 * @param {string} benchUrl
 * @param {string} bench short stable name of the benchmark ("search", "scale", ...)
 */
export function createBenchReport(benchUrl, bench, argv = process.argv.slice(2)) {
  const benchDir = dirname(fileURLToPath(benchUrl));
  const packageDir = dirname(benchDir);
  const packageName = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).name;
  const json = argv.includes("--json");
  const run = {
    id: `${new Date().toISOString()}-${process.pid}`,
    startedAt: new Date().toISOString(),
    commit: gitCommit(packageDir),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    loadavg: loadavg().map((n) => Number(n.toFixed(2))),
  };
  const lines = [];
  const text = (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const resultsDir = join(benchDir, "results");
  const resultsFile = join(resultsDir, `${bench}.jsonl`);

  const flush = () => {
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(resultsFile, lines.map((line) => `${line}\n`).join(""));
  };

  text(
    `[${packageName} ${bench}] node ${run.node}, ${run.cpus} CPUs, load average ${run.loadavg.join(" ")} ` +
      `(a shared machine: compare the ratios, measured in the same run, not the absolute times)`,
  );

  return {
    /** True when `--json` was given (stdout is reserved for JSON lines). */
    json,
    /** Prints a line of text (stderr under `--json`). */
    note: text,
    /**
     * Records one measurement and prints it.
     * @param {{case: string, metric: string, unit: string, value: number, stat?: string,
     *   rounds?: number, baseline?: {name: string, value: number}, target?: {op: "<=" | ">=",
     *   value: number, of: "ratio" | "value"}, params?: Record<string, unknown>, label?: string}} m
     * @param {{ quiet?: boolean }} [options] `quiet`: JSON only, no text line (the caller prints a summary)
     */
    measure(m, options = {}) {
      const ratio = m.baseline && m.baseline.value > 0 ? m.value / m.baseline.value : null;
      const judged = m.target ? (m.target.of === "ratio" ? ratio : m.value) : null;
      const pass =
        m.target && judged !== null
          ? m.target.op === "<="
            ? judged <= m.target.value
            : judged >= m.target.value
          : null;
      const record = {
        schema: BENCH_SCHEMA,
        package: packageName,
        bench,
        case: m.case,
        metric: m.metric,
        unit: m.unit,
        value: round(m.value),
        stat: m.stat ?? "single",
        rounds: m.rounds ?? 1,
        baseline: m.baseline ? { name: m.baseline.name, value: round(m.baseline.value) } : null,
        ratio: ratio === null ? null : round(ratio),
        target: m.target ?? null,
        pass,
        params: m.params ?? {},
        loadavg: loadavg().map((n) => Number(n.toFixed(2))),
        run,
      };
      lines.push(JSON.stringify(record));
      if (json) process.stdout.write(`${lines.at(-1)}\n`);
      if (!options.quiet) text(describe(record, m.label));
      flush();
      return record;
    },
    /** Where the JSON lines of this run are written. */
    resultsFile,
  };
}

function describe(r, label) {
  const name = label ?? `${r.case}${Object.keys(r.params).length ? ` ${formatParams(r.params)}` : ""}`;
  let out = `${name}: ${r.metric} ${formatValue(r.value, r.unit)}`;
  if (r.stat !== "single") out += ` (${r.stat}${r.rounds > 1 ? ` of ${r.rounds}` : ""})`;
  if (r.baseline)
    out += `; ${r.baseline.name} ${formatValue(r.baseline.value, r.unit)}; ratio ${r.ratio?.toFixed(2)}`;
  if (r.target) {
    const what = r.target.of === "ratio" ? "ratio" : r.metric;
    out += ` [target ${what} ${r.target.op} ${r.target.value}: ${r.pass ? "PASS" : "FAIL"}]`;
  }
  return out;
}

function formatParams(params) {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}

function formatValue(value, unit) {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

function round(n) {
  return Number.isFinite(n) ? Number(n.toPrecision(6)) : n;
}

function gitCommit(cwd) {
  try {
    return execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd, encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}
