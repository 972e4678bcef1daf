// Bundles a package's built entry points into one ES module each, after tsc has built dist/.
// Run from the package directory: `node ../../scripts/bundle-dist.mjs` (the package needs esbuild
// as a devDependency).
//
// Why: a process pays memory per ES module it loads, beyond the module's code. Node's loader
// allocates for every module and every import it resolves, and its URL and path helpers run
// often enough to be optimised, which pages in V8's optimising compiler. Importing
// @tackle/tools and creating the tools loaded about 160 modules of Tackle's own (after TypeBox
// became one module) and peaked at 56-57 MB; the same code as one module per entry point peaks
// at about 53 MB (bare Node 39 MB).
//
// What stays as it was: the declaration files tsc wrote (the bundles export the same names), and
// every bare import (other Tackle packages, npm dependencies, node: built-ins), so a process
// holds one copy of each package, shared with its own imports. Code used by two entry points of
// the package goes to dist/chunks/ (one copy: module state and classes stay shared), and so
// does each module loaded with `await import()`, which stays loaded on demand. Source maps lead
// to src/ through tsc's maps. Not minified: stack traces and dist/ stay readable.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";

const packageDir = process.cwd();
const dist = join(packageDir, "dist");
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
// esbuild is a devDependency of each package that runs this.
const { build } = createRequire(join(packageDir, "package.json"))("esbuild");

/** `./dist/x/y.js` of every `exports` entry with an `import` condition (or a plain string). */
function entryPoints() {
  const entries = [];
  for (const target of Object.values(manifest.exports ?? {})) {
    const file = typeof target === "string" ? target : target.import;
    if (typeof file === "string" && file.startsWith("./dist/") && file.endsWith(".js")) {
      entries.push(join(packageDir, file));
    }
  }
  if (entries.length === 0) throw new Error(`bundle-dist: ${manifest.name} exports no ./dist/*.js entry`);
  for (const entry of entries) {
    if (!existsSync(entry)) throw new Error(`bundle-dist: ${relative(packageDir, entry)} was not built`);
  }
  return entries;
}

/** Every bare specifier (another package or a built-in) stays an import resolved at run time. */
const externalPackages = {
  name: "external-packages",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** Files under `dir`, relative to it. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true }).filter((file) => statSync(join(dir, file)).isFile());
}

/**
 * Keeps the embedded text only for sources outside the package, and names a source inside a
 * node_modules directory as the dependency it comes from (`node_modules/<name>/<path>` from the
 * package), not by the build machine's path into pnpm's store.
 */
function tidySourceMap(file) {
  const map = JSON.parse(readFileSync(file, "utf8"));
  const dir = dirname(file);
  map.sources = map.sources.map((source, i) => {
    const at = source.lastIndexOf("node_modules/");
    if (at >= 0) return relative(dir, join(packageDir, source.slice(at)));
    if (!relative(packageDir, join(dir, source)).startsWith("..")) map.sourcesContent[i] = null;
    return source;
  });
  writeFileSync(file, JSON.stringify(map));
}

const entries = entryPoints();
// esbuild refuses to overwrite its inputs: build beside dist/ (at the same depth, so the maps'
// relative paths to src/ hold after the move), then swap the JavaScript.
const out = mkdtempSync(join(packageDir, ".bundle-"));
try {
  await build({
    absWorkingDir: packageDir,
    entryPoints: entries,
    outbase: dist,
    outdir: out,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    minify: false,
    sourcemap: "linked",
    // Every source's text, then dropped for the package's own files (src/ ships with it); code
    // from elsewhere (a dependency bundled before, like agent-core's TypeBox) keeps its text.
    sourcesContent: true,
    legalComments: "inline",
    plugins: [externalPackages],
    logLevel: "warning",
  });
  // tsc's JavaScript is inlined now; its declarations stay.
  for (const file of filesUnder(dist)) {
    if (file.endsWith(".js") || file.endsWith(".js.map")) rmSync(join(dist, file));
  }
  for (const file of filesUnder(out)) {
    const target = join(dist, file);
    mkdirSync(dirname(target), { recursive: true });
    renameSync(join(out, file), target);
    if (target.endsWith(".map")) tidySourceMap(target);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
