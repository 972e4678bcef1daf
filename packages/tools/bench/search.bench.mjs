// grep and find benchmark: the tools (native search through @tackle/operations-local, i.e. the
// bundled ripgrep) against raw `rg` with the same flags, in the same run, on a generated tree
// of SEARCH_FILES files (default 100,000). Both scan the whole tree: the grep pattern has few
// matches and the limits are large enough that nothing stops early; "grep default limit" is the
// plain call (limit 100) on the tree's 101 matches, where rg delivering out of path order makes
// the tool read every match to keep the page exact. Several runs, alternating, median. Each tool
// case prints two ratios (target <= 1.10):
// - vs raw rg with the argv the adapter runs (planGrep/planFiles of @tackle/operations): the
//   tool's own overhead;
// - vs plain `rg -g GLOB`, the command a user would type: a name glob reaches rg as a file type
//   (`--type-add`, which keeps ignore rules; `--glob` would override them), slower in rg itself.
// The tree is removed afterwards.
// SEARCH_PORTABLE=1 also times the portable walk once (information, no target).
// Run `pnpm --filter @tackle/tools build` first: this imports ../dist.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { planFiles, planGrep } from "@tackle/operations/ripgrep";
import { createLocalOperations } from "@tackle/operations-local";
import { createToolContext, createToolDefinition } from "../dist/index.js";

const FILES = Number(process.env.SEARCH_FILES ?? 100_000);
const RUNS = Number(process.env.SEARCH_RUNS ?? 7);
const PER_DIR = 100;
const RARE = "zanzibar_quokka";
const RARE_EVERY = 997; // a match in about one file in a thousand
const MD_EVERY = 101; // about one .md file in a hundred

const rgPath = await bundledRg();
const root = await mkdtemp(join(tmpdir(), "tackle-search-bench-"));
try {
  const { matches, markdown } = await generate(root);
  console.log(
    `tree: ${FILES} files in ${FILES / PER_DIR} directories, ${matches} matching lines, ${markdown} .md files`,
  );
  const ctx = createToolContext({ cwd: root, operations: createLocalOperations() });
  const grep = createToolDefinition("grep");
  const find = createToolDefinition("find");
  const grepParams = { pattern: RARE, limit: matches * 2 };
  const grepDefault = { pattern: RARE };
  const findParams = { pattern: "*.md", limit: markdown * 2 };
  const dir = { kind: "directory" };
  // The argv the local adapter runs (packages/operations-local/src/search.ts builds it this way).
  const sameGrep = planGrep({ pattern: RARE, path: root }, dir).args;
  const sameFind = planFiles({ path: root, glob: "*.md" }, dir).args;
  // The plain commands: what a user would type.
  const common = ["--hidden", "--no-require-git", "--no-config", "--glob", "!.git"];
  const plainGrep = ["--json", ...common, "--case-sensitive", "--regexp", RARE, "--", "./"];
  const plainFind = ["--files", "--null", ...common, "--glob", "*.md", "--", "./"];

  const check = async () => {
    const g = await grep.execute("bench", grepParams, undefined, undefined, ctx);
    const d = await grep.execute("bench", grepDefault, undefined, undefined, ctx);
    const f = await find.execute("bench", findParams, undefined, undefined, ctx);
    if (g.details.matches !== matches)
      throw new Error(`grep found ${g.details.matches}, expected ${matches}`);
    if (
      d.details.matches !== Math.min(matches, d.details.limit) ||
      matches > d.details.limit !== (d.details.nextOffset !== undefined)
    )
      throw new Error(`grep (default limit) showed ${d.details.matches} of ${matches}`);
    if (f.details.count !== markdown) throw new Error(`find found ${f.details.count}, expected ${markdown}`);
    if (g.details.engine !== "native") throw new Error("grep did not use the native search");
  };
  await check(); // also warms the page cache for both sides
  await time(() => rg(sameGrep, root));

  const tool = (definition, params) => () => definition.execute("bench", params, undefined, undefined, ctx);
  const cases = [
    { name: "grep", tool: tool(grep, grepParams), same: sameGrep, plain: plainGrep, plainName: "rg" },
    {
      name: "grep default limit",
      tool: tool(grep, grepDefault),
      same: sameGrep,
      plain: plainGrep,
      plainName: "rg",
    },
    {
      name: "find",
      tool: tool(find, findParams),
      same: sameFind,
      plain: plainFind,
      plainName: "rg -g '*.md'",
    },
  ];
  for (const c of cases) {
    c.samples = { tool: [], same: [], plain: [] };
    c.identical = c.same.join("\0") === c.plain.join("\0");
  }
  for (let i = 0; i < RUNS; i++) {
    for (const c of cases) {
      // Rotate which side goes first, so none always runs right after another's I/O.
      const steps = [
        async () => c.samples.tool.push(await time(c.tool)),
        async () => c.samples.same.push(await time(() => rg(c.same, root))),
      ];
      if (!c.identical) steps.push(async () => c.samples.plain.push(await time(() => rg(c.plain, root))));
      for (let k = 0; k < steps.length; k++) await steps[(i + k) % steps.length]();
    }
  }
  for (const c of cases) report(c);
  if (process.env.SEARCH_PORTABLE === "1") {
    // For information only (no target): the same calls on the portable walk, one run each.
    const portable = createToolContext({ cwd: root, operations: createLocalOperations({ rgPath: false }) });
    const g = await time(() => grep.execute("bench", grepParams, undefined, undefined, portable));
    const f = await time(() => find.execute("bench", findParams, undefined, undefined, portable));
    console.log(
      `portable walk: grep ${g.toFixed(0)} ms (${(g / median(cases[0].samples.same)).toFixed(1)}x raw rg), find ${f.toFixed(0)} ms (${(f / median(cases[2].samples.same)).toFixed(1)}x raw rg)`,
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

function report(c) {
  const t = median(c.samples.tool);
  const same = median(c.samples.same);
  const plain = c.identical ? same : median(c.samples.plain);
  const ratio = (raw) => `${(t / raw).toFixed(2)}${t / raw <= 1.1 ? "" : " ABOVE TARGET"}`;
  const vsPlain = `vs plain ${c.plainName} ${plain.toFixed(0)} ms: ratio ${ratio(plain)}`;
  console.log(
    `${c.name}: tool ${t.toFixed(0)} ms (median of ${RUNS}); vs rg with the adapter's argv ${same.toFixed(0)} ms: ratio ${ratio(same)}; ${vsPlain}  (target <= 1.10)`,
  );
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function time(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Runs rg to completion, draining its output (as the tool does), stdin closed. */
function rg(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.on("data", () => {});
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 || code === 1 ? resolve() : reject(new Error(`rg exited ${code}`)),
    );
  });
}

async function bundledRg() {
  const fromTools = createRequire(import.meta.url);
  const fromLocal = createRequire(fromTools.resolve("@tackle/operations-local/package.json"));
  return (await import(fromLocal.resolve("@vscode/ripgrep"))).rgPath;
}

/** Writes the tree: a repository with a .gitignore, PER_DIR files per directory. */
async function generate(dir) {
  await mkdir(join(dir, ".git", "objects"), { recursive: true });
  await writeFile(join(dir, ".gitignore"), "*.tmp\nignored/\n");
  let matches = 0;
  let markdown = 0;
  const body = "const value = compute(input);\nfunction helper(a, b) { return a + b; }\n// a comment line\n";
  for (let d = 0; d < FILES / PER_DIR; d++) {
    const sub = join(dir, `pkg${String(d).padStart(4, "0")}`, "src");
    await mkdir(sub, { recursive: true });
    const writes = [];
    for (let f = 0; f < PER_DIR; f++) {
      const n = d * PER_DIR + f;
      const isMd = n % MD_EVERY === 0;
      if (isMd) markdown++;
      let text = body;
      if (n % RARE_EVERY === 0) {
        text += `export const marker = "${RARE}";\n`;
        matches++;
      }
      writes.push(writeFile(join(sub, `file${f}.${isMd ? "md" : "ts"}`), text));
    }
    await Promise.all(writes);
  }
  return { matches, markdown };
}
