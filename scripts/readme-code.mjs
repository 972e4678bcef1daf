// Compiles every TypeScript code block of the repository's Markdown (root README, package READMEs,
// docs/) the way a user would paste it: one module per block, in a temp project that resolves the
// built workspace packages through their `exports`, under strict, exactOptionalPropertyTypes and
// noUncheckedIndexedAccess. A block is left out only when the line before its fence says why:
//   <!-- not-compiled: the reason -->
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FENCE = /^(\s*)(```+|~~~+)\s*([\w+-]*)/;
const TYPESCRIPT = new Set(["ts", "typescript", "mts", "tsx"]);
const SKIP_MARKER = /^\s*<!--\s*not-compiled:(.*?)-->\s*$/;

/** Compiler options every block is checked under (what a careful consumer turns on). */
export const README_COMPILER_OPTIONS = {
  target: "ES2022",
  lib: ["ES2022"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
};

/**
 * The TypeScript blocks of one Markdown text: `{ line, code }` with `line` the 1-based line of the
 * block's first code line, or `{ line, skipped: reason }`. A skip marker without a reason is
 * reported in `problems`, and the block is compiled anyway.
 */
export function extractTypeScriptBlocks(markdown) {
  const lines = markdown.split(/\r?\n/);
  const blocks = [];
  const problems = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const fence = open[2];
    let end = i + 1;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++;
    if (TYPESCRIPT.has(open[3].toLowerCase())) {
      const marker = i > 0 ? SKIP_MARKER.exec(lines[i - 1]) : null;
      const reason = marker?.[1].trim();
      if (marker && !reason) problems.push({ line: i, message: "not-compiled marker without a reason" });
      if (reason) blocks.push({ line: i + 2, skipped: reason });
      else blocks.push({ line: i + 2, code: lines.slice(i + 1, end).join("\n") });
    }
    i = end;
  }
  return { blocks, problems };
}

/** Folders of docs/ that hold no source pages: generated (the API reference), tooling, output. */
const DOCS_SKIPPED = new Set(["node_modules", "reference", "test-results"]);

/** The `.md` files below `dir` (relative to `root`), skipping dot folders and `DOCS_SKIPPED`. */
function docsPages(root, dir) {
  const pages = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.isDirectory() && !entry.name.startsWith(".") && !DOCS_SKIPPED.has(entry.name))
      pages.push(...docsPages(root, path.join(dir, entry.name)));
    else if (entry.isFile() && entry.name.endsWith(".md")) pages.push(path.join(dir, entry.name));
  }
  return pages;
}

/** The Markdown files whose blocks are compiled, relative to the repository root. */
export function markdownFiles(root) {
  const files = ["README.md"];
  const packages = path.join(root, "packages");
  if (fs.existsSync(packages)) {
    for (const entry of fs.readdirSync(packages, { withFileTypes: true })) {
      if (entry.isDirectory() && fs.existsSync(path.join(packages, entry.name, "README.md")))
        files.push(path.join("packages", entry.name, "README.md"));
    }
  }
  if (fs.existsSync(path.join(root, "docs"))) files.push(...docsPages(root, "docs"));
  return files.filter((file) => fs.existsSync(path.join(root, file))).sort();
}

const BARE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"'./][^"']*)["']/g;

function packageRoot(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function workspacePackages(root) {
  const found = new Map();
  for (const dir of ["packages", "examples"]) {
    const base = path.join(root, dir);
    if (!fs.existsSync(base)) continue;
    const candidates = fs.existsSync(path.join(base, "package.json"))
      ? [base]
      : fs.readdirSync(base).map((name) => path.join(base, name));
    for (const pkgDir of candidates) {
      const manifest = path.join(pkgDir, "package.json");
      if (fs.existsSync(manifest)) found.set(JSON.parse(fs.readFileSync(manifest, "utf8")).name, pkgDir);
    }
  }
  return found;
}

/** Where a third-party package a block imports is installed: the documented package's, else any. */
function findInstalled(root, name, preferredDirs) {
  for (const dir of [...preferredDirs, root]) {
    const candidate = path.join(dir, "node_modules", name);
    if (fs.existsSync(candidate)) return fs.realpathSync(candidate);
  }
  return undefined;
}

function link(target, at) {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  if (!fs.existsSync(at)) fs.symlinkSync(target, at, "dir");
}

/**
 * Compiles the blocks of the given Markdown files (relative to `root`, or absolute). Returns
 * `{ compiled, skipped, errors }`; each error is `{ file, line, message }` with the line in the
 * Markdown file.
 */
export function checkReadmeCode(root, files = markdownFiles(root)) {
  const workspace = workspacePackages(root);
  const dirs = [...workspace.values()];
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "tackle-readme-code-"));
  const errors = [];
  const sources = new Map();
  let skipped = 0;
  try {
    fs.writeFileSync(path.join(temp, "package.json"), JSON.stringify({ type: "module", private: true }));
    for (const [name, dir] of workspace) link(dir, path.join(temp, "node_modules", name));
    link(
      fs.realpathSync(path.join(root, "node_modules/@types/node")),
      path.join(temp, "node_modules/@types/node"),
    );
    for (const file of files) {
      const full = path.resolve(root, file);
      const { blocks, problems } = extractTypeScriptBlocks(fs.readFileSync(full, "utf8"));
      for (const problem of problems) errors.push({ file, ...problem });
      const owner = fs.existsSync(path.join(path.dirname(full), "package.json")) ? [path.dirname(full)] : [];
      for (const block of blocks) {
        if (block.skipped) {
          skipped++;
          continue;
        }
        const name = `${file.replace(/[^\w]+/g, "_")}_L${block.line}.ts`;
        // `export {}` keeps each block a module of its own; it goes last so line numbers stay.
        fs.writeFileSync(path.join(temp, name), `${block.code}\nexport {};\n`);
        sources.set(name, { file, line: block.line });
        for (const match of block.code.matchAll(BARE_IMPORT)) {
          const spec = match[1];
          if (spec.startsWith("node:") || workspace.has(packageRoot(spec))) continue;
          const installed = findInstalled(root, packageRoot(spec), [...owner, ...dirs]);
          if (installed) link(installed, path.join(temp, "node_modules", packageRoot(spec)));
        }
      }
    }
    if (sources.size > 0) {
      const tsconfig = { compilerOptions: README_COMPILER_OPTIONS, files: [...sources.keys()] };
      fs.writeFileSync(path.join(temp, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
      const tsc = path.join(root, "node_modules/typescript/bin/tsc");
      let output = "";
      try {
        execFileSync(process.execPath, [tsc, "-p", temp, "--pretty", "false"], { encoding: "utf8" });
      } catch (error) {
        output = `${error.stdout ?? ""}${error.stderr ?? ""}`;
        if (!output.trim()) throw error;
      }
      for (const line of output.split("\n")) {
        const hit = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
        if (!hit) {
          const last = errors.at(-1);
          if (last && /^\s/.test(line)) last.message += ` ${line.trim()}`;
          else if (line.trim()) errors.push({ file: "(tsc)", line: 0, message: line.trim() });
          continue;
        }
        const source = sources.get(path.basename(hit[1]));
        if (source)
          errors.push({ file: source.file, line: source.line + Number(hit[2]) - 1, message: hit[4] });
        else errors.push({ file: hit[1], line: Number(hit[2]), message: hit[4] });
      }
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
  return { compiled: sources.size, skipped, errors };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const { compiled, skipped, errors } = checkReadmeCode(root);
  for (const error of errors) console.error(`${error.file}:${error.line}: ${error.message}`);
  if (errors.length > 0) process.exit(1);
  console.log(`readme code: ${compiled} TypeScript blocks compiled, ${skipped} marked not compiled`);
}
