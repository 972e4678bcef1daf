// grep and find benchmark: the tools (native search through @tackle/operations-local, i.e. the
// bundled ripgrep) against raw `rg` with the same flags, in the same run, on a generated tree
// of SEARCH_FILES files (default 100,000). Both scan the whole tree: the grep pattern has few
// matches and the limits are large enough that nothing stops early. Several runs, alternating,
// median; prints the ratio tool / raw (target <= 1.10). The tree is removed afterwards.
// SEARCH_PORTABLE=1 also times the portable walk once (information, no target).
// Run `pnpm --filter @tackle/tools build` first: this imports ../dist.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createLocalOperations } from "@tackle/operations-local";
import { createFindToolDefinition, createGrepToolDefinition, createToolContext } from "../dist/index.js";

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
  const grep = createGrepToolDefinition();
  const find = createFindToolDefinition();
  const grepParams = { pattern: RARE, limit: matches * 2 };
  const findParams = { pattern: "*.md", limit: markdown * 2 };
  // The flags the local native search passes (packages/operations-local/src/search.ts).
  const common = ["--hidden", "--no-require-git", "--no-config", "--glob", "!.git"];
  const rawGrep = ["--json", ...common, "--case-sensitive", "--regexp", RARE, "--", "./"];
  const rawFind = ["--files", "--null", ...common, "--glob", "*.md", "--", "./"];

  const check = async () => {
    const g = await grep.execute("bench", grepParams, undefined, undefined, ctx);
    const f = await find.execute("bench", findParams, undefined, undefined, ctx);
    if (g.details.matches !== matches)
      throw new Error(`grep found ${g.details.matches}, expected ${matches}`);
    if (f.details.count !== markdown) throw new Error(`find found ${f.details.count}, expected ${markdown}`);
    if (g.details.engine !== "native") throw new Error("grep did not use the native search");
  };
  await check(); // also warms the page cache for both sides
  await time(() => rg(rawGrep, root));

  const samples = { grepTool: [], grepRaw: [], findTool: [], findRaw: [] };
  const steps = [
    async () => samples.grepRaw.push(await time(() => rg(rawGrep, root))),
    async () =>
      samples.grepTool.push(await time(() => grep.execute("bench", grepParams, undefined, undefined, ctx))),
    async () => samples.findRaw.push(await time(() => rg(rawFind, root))),
    async () =>
      samples.findTool.push(await time(() => find.execute("bench", findParams, undefined, undefined, ctx))),
  ];
  for (let i = 0; i < RUNS; i++) {
    // Alternate which side goes first, so neither always runs right after the other's I/O.
    const order = i % 2 === 0 ? [0, 1, 2, 3] : [1, 0, 3, 2];
    for (const step of order) await steps[step]();
  }
  report("grep", samples.grepTool, samples.grepRaw);
  report("find", samples.findTool, samples.findRaw);
  if (process.env.SEARCH_PORTABLE === "1") {
    // For information only (no target): the same calls on the portable walk, one run each.
    const portable = createToolContext({ cwd: root, operations: createLocalOperations({ rgPath: false }) });
    const g = await time(() => grep.execute("bench", grepParams, undefined, undefined, portable));
    const f = await time(() => find.execute("bench", findParams, undefined, undefined, portable));
    console.log(
      `portable walk: grep ${g.toFixed(0)} ms (${(g / median(samples.grepRaw)).toFixed(1)}x raw rg), find ${f.toFixed(0)} ms (${(f / median(samples.findRaw)).toFixed(1)}x raw rg)`,
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

function report(name, tool, raw) {
  const t = median(tool);
  const r = median(raw);
  const ratio = t / r;
  console.log(
    `${name}: tool ${t.toFixed(0)} ms, raw rg ${r.toFixed(0)} ms (median of ${RUNS}), ratio ${ratio.toFixed(2)} (target <= 1.10)${ratio <= 1.1 ? "" : "  ABOVE TARGET"}`,
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
