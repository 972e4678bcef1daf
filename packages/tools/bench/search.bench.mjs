// grep and find through the tools (local adapter, bundled ripgrep) against raw `rg` in the same
// run, on a generated tree of SEARCH_FILES files (default 100,000; a repository with a .gitignore
// and ignored files that must never show up). Rounds alternate and rotate; medians are reported.
//
// Cases (ratios against baselines run in the same round):
// - grep-page: a common word with the default page (`limit: 100`): time to the tool's answer vs
//   `rg -n WORD` until its 100th line (then killed). Target <= 1.5. The page is also checked to
//   be the first 100 matches in path order (`rg --sort path -n WORD | head -100`): deterministic.
// - grep-page-offset: the same with `offset: 1000` (information).
// - grep-rare: a word in about one file in a thousand, so every file is read: vs `rg -n WORD`
//   to the end (target <= 1.10).
// - find-ts: `**/*.ts` with the largest page (2000) vs rg with the tools' flags to the end: the
//   cheapest single rg run that gives the same answer (the first paths in path order). Target
//   <= 1.10. (Against `rg --files -g '*.ts'` the ratio was 0.36-0.5: those flags
//   also apply the glob before the ignore rules, a slower, different answer.)
// - find-md: `*.md` (one file in a hundred, so the whole tree is walked) vs `rg --files -g '*.md'`
//   (information). Not the same answer: a `-g` glob is an override that rg decides before the
//   ignore rules, so it also lists the tree's .gitignored `*.draft.md` files (one per directory;
//   the bench prints both counts), which the tools must never show.
// - find-md-rules: the same call vs rg with the flags the tools pass (`planFiles`: ignore rules
//   applied to every file, the glob as a file type; no parent ignore lookup, as the adapter finds
//   none above the temp tree): the same answer, so the ratio is the tools' own cost when the
//   whole tree is walked. Target <= 1.10.
//
// Run `pnpm --filter @tackle/tools build` first. SEARCH_FILES and SEARCH_RUNS change the size and
// the rounds (SEARCH_QUICK_RUNS and SEARCH_QUICK_WARMUP those of the paged cases, which answer in
// milliseconds); --json prints JSON lines (docs/performance.md).
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { invokeTool } from "@tackle/agent-core";
import { planFiles } from "@tackle/operations/ripgrep";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { interleave, median } from "../../../scripts/bench/stats.mjs";
import { createTools } from "../dist/index.js";
import { createLocalToolContext } from "../dist/local.js";

const FILES = Number(process.env.SEARCH_FILES ?? 100_000);
const RUNS = Number(process.env.SEARCH_RUNS ?? 5);
/**
 * Cases that answer in milliseconds (a page) get more rounds and a longer warm-up: one call does
 * not warm the JIT (V8 optimises a function after many calls, as in an agent's long-lived
 * process), and a median of 5 samples of a 10-20 ms answer moves with every scheduling hiccup.
 */
const QUICK_RUNS = Number(process.env.SEARCH_QUICK_RUNS ?? 15);
const QUICK_WARMUP = Number(process.env.SEARCH_QUICK_WARMUP ?? 20);
const PER_DIR = 100;
const COMMON = "value";
const RARE = "zanzibar_quokka";
const RARE_EVERY = 997;
const MD_EVERY = 101;
const PAGE = 100;

const report = createBenchReport(import.meta.url, "search");
const rgPath = await bundledRg();
const root = await mkdtemp(join(tmpdir(), "tackle-search-bench-"));
try {
  const started = performance.now();
  const tree = await generate(root);
  report.note(
    `tree: ${FILES} files (and 3 .gitignored ones per directory) in ${FILES / PER_DIR} directories (${(tree.bytes / 1024 / 1024).toFixed(0)} MB), ` +
      `${tree.rare} lines with the rare word, ${tree.markdown} .md files; made in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const ctx = createLocalToolContext({ cwd: root });
  const { grep, find } = createTools({ context: ctx, names: ["grep", "find"] });
  const call = (tool, args) => async () => {
    const outcome = await invokeTool(tool, args);
    if (outcome.isError) throw new Error(`${tool.name} failed: ${JSON.stringify(outcome.content)}`);
    return outcome;
  };
  await checkPage(await call(grep, { pattern: COMMON })(), root);
  const findAll = await call(find, { pattern: "**/*.ts", limit: 2000 })();
  if (findAll.details.count !== 2000) throw new Error(`find showed ${findAll.details.count} paths`);
  const rare = await call(grep, { pattern: RARE, limit: 2000 })();
  if (rare.details.matches !== tree.rare)
    throw new Error(`grep found ${rare.details.matches} of ${tree.rare}`);
  const md = await call(find, { pattern: "*.md", limit: 2000 })();
  if (md.details.count !== tree.markdown)
    throw new Error(`find found ${md.details.count} of ${tree.markdown}`);
  const globbed = await rgLines(["--files", "-g", "*.md"], root);
  report.note(
    `find *.md shows ${md.details.count} paths; rg --files -g '*.md' lists ${globbed} ` +
      `(${globbed - md.details.count} of them .gitignored): a different answer, hence find-md-rules`,
  );

  const cases = [
    {
      case: "grep-page",
      quick: true,
      tool: call(grep, { pattern: COMMON }),
      raw: () => rgLines(["-n", COMMON], root, PAGE),
      baseline: `rg -n ${COMMON} to its ${PAGE}th line`,
      target: 1.5,
    },
    {
      case: "grep-page-offset",
      quick: true,
      params: { offset: 1000 },
      tool: call(grep, { pattern: COMMON, offset: 1000 }),
      raw: () => rgLines(["-n", COMMON], root, 1000 + PAGE),
      baseline: `rg -n ${COMMON} to its ${1000 + PAGE}th line`,
    },
    {
      case: "grep-rare",
      tool: call(grep, { pattern: RARE, limit: 2000 }),
      raw: () => rgLines(["-n", RARE], root),
      baseline: `rg -n ${RARE} (whole tree)`,
      target: 1.1,
    },
    {
      case: "find-ts",
      quick: true,
      tool: call(find, { pattern: "**/*.ts", limit: 2000 }),
      // The same answer is the first 2000 paths in path order. No single rg run gives it cheaper
      // than the whole list with the tools' flags (ignore rules on every file, the glob as a file
      // type): unsorted rg's first 2000 lines are another, nondeterministic set, and `--sort path`
      // walks on one thread. The tool runs both kinds and stops once the page is known.
      raw: () =>
        rgLines(
          planFiles({ path: root, glob: "**/*.ts" }, { kind: "directory", parentIgnoreFiles: false }).args,
          root,
        ),
      baseline: "rg with the tools' flags for find **/*.ts (whole tree)",
      target: 1.1,
    },
    {
      case: "find-md",
      tool: call(find, { pattern: "*.md", limit: 2000 }),
      raw: () => rgLines(["--files", "-g", "*.md"], root),
      baseline: "rg --files -g '*.md' (whole tree, ignored files included)",
    },
    {
      case: "find-md-rules",
      tool: call(find, { pattern: "*.md", limit: 2000 }),
      // As the local adapter plans it: no directory above the temp tree holds an ignore file.
      raw: () =>
        rgLines(
          planFiles({ path: root, glob: "*.md" }, { kind: "directory", parentIgnoreFiles: false }).args,
          root,
        ),
      baseline: "rg with the tools' flags for find *.md (whole tree)",
      target: 1.1,
    },
  ];
  // Warm the page cache and the JIT for both sides.
  for (const c of cases) {
    for (let i = 0; i < (c.quick ? QUICK_WARMUP : 1); i++) {
      await c.tool();
      await c.raw();
    }
  }
  for (const c of cases) {
    const rounds = c.quick ? QUICK_RUNS : RUNS;
    const samples = await interleave({ tool: c.tool, raw: c.raw }, rounds);
    report.measure({
      case: c.case,
      metric: "time",
      unit: "ms",
      value: median(samples.tool),
      stat: "median",
      rounds,
      baseline: { name: c.baseline, value: median(samples.raw) },
      ...(c.target ? { target: { op: "<=", value: c.target, of: "ratio" } } : {}),
      params: { files: FILES, ...(c.params ?? {}) },
    });
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

/** The default page must be the first PAGE matches in path then line order, whoever runs it. */
async function checkPage(outcome, cwd) {
  const sorted = await rgOutput(["--sort", "path", "-n", COMMON], cwd, PAGE);
  const expected = sorted.map((line) => line.split(":").slice(0, 2).join(":"));
  const shown = outcome.content[0].text
    .split("\n")
    .map((line) => /^([^:\s]+):(\d+):/.exec(line))
    .filter(Boolean)
    .map((m) => `${m[1]}:${m[2]}`);
  if (shown.join("\n") !== expected.join("\n")) {
    throw new Error(`grep page differs from rg --sort path: ${shown.slice(0, 3)} vs ${expected.slice(0, 3)}`);
  }
}

/**
 * Runs rg in `cwd` until it printed `lines` lines (then kills it) or to its end; resolves when
 * that many lines arrived or the process closed.
 */
function rgLines(args, cwd, lines = Number.POSITIVE_INFINITY) {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
    let seen = 0;
    let done = false;
    // Resolves with the number of lines seen.
    child.stdout.on("data", (chunk) => {
      if (done) return;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) seen++;
      if (seen >= lines) {
        done = true;
        child.kill("SIGKILL");
        resolve(seen);
      }
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (done) return;
      if (code === 0 || code === 1 || signal === "SIGKILL") resolve(seen);
      else reject(new Error(`rg ${args.join(" ")} exited ${code}`));
    });
  });
}

/** The first `lines` lines of an rg run. */
function rgOutput(args, cwd, lines) {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (text.split("\n").length > lines) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("close", () => resolve(text.split("\n").slice(0, lines)));
  });
}

async function bundledRg() {
  const fromTools = createRequire(import.meta.url);
  const fromLocal = createRequire(fromTools.resolve("@tackle/operations-local/package.json"));
  return (await import(fromLocal.resolve("@vscode/ripgrep"))).rgPath;
}

/**
 * A repository: `.git/`, a `.gitignore` (`*.tmp`, `ignored/`), PER_DIR files per directory with
 * the common word on several lines, the rare word in about one file in a thousand, and ignored
 * files holding both words (found by neither side, or the check fails).
 */
async function generate(dir) {
  await mkdir(join(dir, ".git", "objects"), { recursive: true });
  await writeFile(join(dir, ".gitignore"), "*.tmp\nignored/\n*.draft.md\n");
  let rare = 0;
  let markdown = 0;
  let bytes = 0;
  const lines = [];
  for (let i = 0; i < 40; i++) {
    lines.push(
      i % 8 === 0
        ? `  const value${i} = compute(input, ${i}); // the value of step ${i}`
        : `  function helper${i}(a, b) { return a * ${i} + b; } // plain line ${i}`,
    );
  }
  const body = `${lines.join("\n")}\n`;
  for (let d = 0; d < FILES / PER_DIR; d++) {
    const sub = join(dir, `pkg${String(d).padStart(4, "0")}`, "src");
    await mkdir(join(sub, "ignored"), { recursive: true });
    const writes = [writeFile(join(sub, "ignored", "skip.ts"), `${body}${RARE}\n`)];
    writes.push(writeFile(join(sub, "scratch.tmp"), `${body}${RARE}\n`));
    writes.push(writeFile(join(sub, "notes.draft.md"), `${body}${RARE}\n`));
    for (let f = 0; f < PER_DIR; f++) {
      const n = d * PER_DIR + f;
      const isMd = n % MD_EVERY === 0;
      if (isMd) markdown++;
      let text = body;
      if (n % RARE_EVERY === 0) {
        text += `export const marker = "${RARE}";\n`;
        rare++;
      }
      bytes += text.length;
      writes.push(writeFile(join(sub, `file${String(f).padStart(3, "0")}.${isMd ? "md" : "ts"}`), text));
    }
    await Promise.all(writes);
  }
  return { rare, markdown, bytes };
}
