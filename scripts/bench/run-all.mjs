// A package's `bench/run.mjs` in one line: runs every `bench/*.bench.mjs` of the package in its
// own Node process, one after another, and exits non-zero when one fails. Names given on the
// command line pick a subset (`node bench/run.mjs read-tail edit`); `--json` is passed on (JSON
// lines on stdout, see docs/performance.md).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Runs the bench files next to `runnerUrl` (the package's bench/run.mjs `import.meta.url`). */
export function runBenchFiles(runnerUrl, argv = process.argv.slice(2)) {
  const here = dirname(fileURLToPath(runnerUrl));
  const flags = argv.filter((arg) => arg.startsWith("--"));
  const wanted = argv.filter((arg) => !arg.startsWith("--"));
  const json = flags.includes("--json");
  const files = readdirSync(here)
    .filter((name) => name.endsWith(".bench.mjs"))
    .filter((name) => wanted.length === 0 || wanted.some((w) => name.startsWith(w)))
    .sort();
  const say = (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  let failed = 0;
  for (const file of files) {
    say(`\n=== ${file} ===`);
    const result = spawnSync(process.execPath, [join(here, file), ...flags], { stdio: "inherit" });
    if (result.status !== 0) {
      failed++;
      say(`${file} failed (exit ${result.status ?? result.signal})`);
    }
  }
  say(`\n${files.length - failed}/${files.length} benchmarks ran; JSON lines in ${join(here, "results")}.`);
  process.exit(failed === 0 ? 0 : 1);
}
