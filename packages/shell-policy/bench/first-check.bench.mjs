// The first policy check in a fresh process: what `tackle tool bash` and every host's first bash
// call pay. Each stage runs in its own Node process, RUNS rounds interleaved; wall time is from
// spawn to exit as the parent sees it, memory the child's peak RSS (the kernel's maxRSS), both
// medians, against a fresh process doing nothing (`node -e ""`) in the same rounds.
// Stages: bare node; import the policy; import + one plain command (`true`, the fast path, no
// parser); import + one command that needs the grammar (`cd . && npm test`: the tree-sitter
// runtime and the bash grammar load). When the CLI is built (`pnpm build`), also the issue's
// target: `tackle tool bash '{"command":"true"}'` against `tackle tool read` in the same rounds
// (targets: <= 2x its time, < 64 MB), and a bash command the grammar must read, for comparison.
// FIRST_CHECK_RUNS changes the rounds (default 7). Run `pnpm --filter @tackle/shell-policy build`
// first (and `pnpm build` for the CLI rows).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";

const RUNS = Number(process.env.FIRST_CHECK_RUNS ?? 7);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const policy = pathToFileURL(join(packageDir, "dist", "index.js")).href;
const cli = join(packageDir, "..", "cli", "dist", "bin.js");

const report = createBenchReport(import.meta.url, "first-check");
const dir = mkdtempSync(join(tmpdir(), "tackle-first-check-"));
writeFileSync(join(dir, "file.txt"), "one\ntwo\nthree\n");

const print = "console.log(process.resourceUsage().maxRSS)";
const check = (command) =>
  `const p = await import(${JSON.stringify(policy)});
   const v = await p.evaluateCommandPolicy("bash", ${JSON.stringify(command)}, { cwd: ${JSON.stringify(dir)}, roots: [${JSON.stringify(dir)}], platform: "posix" });
   if (v.decision !== "allow") throw new Error(JSON.stringify(v)); ${print}`;
/** name -> the arguments of `node` for it. */
const stages = {
  bare: ["--input-type=module", "-e", print],
  import: ["--input-type=module", "-e", `await import(${JSON.stringify(policy)}); ${print}`],
  "check-plain": ["--input-type=module", "-e", check("true")],
  "check-parsed": ["--input-type=module", "-e", check("cd . && npm test")],
};
const withCli = existsSync(cli);
if (withCli) {
  stages["cli-read"] = [cli, "tool", "read", '{"path":"file.txt"}', "--audit", join(dir, "audit.jsonl")];
  stages["cli-bash"] = [cli, "tool", "bash", '{"command":"true"}', "--audit", join(dir, "audit.jsonl")];
  // A command the grammar must read (a `$`): what every first call cost before the fast path.
  stages["cli-bash-parsed"] = [
    cli,
    "tool",
    "bash",
    '{"command":"echo $HOME"}',
    "--audit",
    join(dir, "audit.jsonl"),
  ];
} else {
  report.note(`(no ${cli}: run \`pnpm build\` for the CLI rows)`);
}

const gnuTime = existsSync("/usr/bin/time");

/**
 * Runs one stage: wall ms from spawn to exit, and the child's peak RSS in MB (printed by the
 * child; for the CLI, which prints its result, GNU time's `%M` on stderr, NaN without it).
 */
function runStage(name, args) {
  const viaTime = name.startsWith("cli-") && gnuTime;
  const [file, argv] = viaTime
    ? ["/usr/bin/time", ["-f", "%M", process.execPath, ...args]]
    : [process.execPath, args];
  const start = performance.now();
  const run = spawnSync(file, argv, { cwd: dir, encoding: "utf8" });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`${name} failed (${run.status}): ${run.stderr}${run.stdout}`);
  const printed = Number((viaTime ? run.stderr : run.stdout).trim().split("\n").pop());
  return { ms, mb: Number.isFinite(printed) ? printed / 1024 : Number.NaN };
}

try {
  const ms = Object.fromEntries(Object.keys(stages).map((name) => [name, []]));
  const mb = Object.fromEntries(Object.keys(stages).map((name) => [name, []]));
  const names = Object.keys(stages);
  for (let round = 0; round < RUNS; round++) {
    // Rotated, so no stage always follows the same neighbour.
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      const sample = runStage(name, stages[name]);
      ms[name].push(sample.ms);
      mb[name].push(sample.mb);
    }
  }
  /** Records a stage's median wall time and peak RSS against the baseline stage's. */
  const measure = (name, stage, base, targets = {}) => {
    const baseline = (values) => ({ name: base.label, value: median(values[base.stage]) });
    report.measure({
      case: name,
      metric: "wall",
      unit: "ms",
      value: median(ms[stage]),
      stat: "median",
      rounds: RUNS,
      baseline: baseline(ms),
      ...(targets.wall ? { target: targets.wall } : {}),
    });
    if (!mb[stage].every(Number.isFinite)) return;
    report.measure({
      case: name,
      metric: "rss-peak",
      unit: "MB",
      value: median(mb[stage]),
      stat: "median",
      rounds: RUNS,
      baseline: baseline(mb),
      ...(targets.rss ? { target: targets.rss } : {}),
    });
  };
  const bare = { stage: "bare", label: 'bare node -e ""' };
  for (const name of ["import", "check-plain", "check-parsed"]) measure(name, name, bare);
  if (withCli) {
    const read = { stage: "cli-read", label: "tackle tool read" };
    measure("cli-read", "cli-read", bare);
    measure("cli-bash-true", "cli-bash", read, {
      wall: { op: "<=", value: 2, of: "ratio" },
      rss: { op: "<=", value: 64, of: "value" },
    });
    measure("cli-bash-parsed", "cli-bash-parsed", read);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
