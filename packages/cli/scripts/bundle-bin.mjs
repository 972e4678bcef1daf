// Bundles the `tackle` binary (dist/bin.js) after tsc has built dist/.
//
// Why: a fresh `tackle tool read` spent most of its time resolving and loading about 450 ES
// modules (249 of them TypeBox's). One file per command (each subcommand stays a chunk loaded on
// demand, so `tackle tool` never loads the MCP SDK or the AI SDK) starts in a fraction of that.
//
// What is inlined: Tackle's own packages, TypeBox and small pure-ESM helpers. Everything else
// stays an import resolved at run time from this package's node_modules, so a package that finds
// its own files (ripgrep's binary, a CommonJS package loaded through createRequire) still does.
// Such imports must be dependencies of the CLI: the build fails when one is not.
//
// The library entry points (dist/index.js, dist/mcp.js) stay tsc's output: programs that import
// @tackle/cli share one copy of each Tackle package with their own imports.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));

/** Bare specifiers inlined into the bundle (a package name, or a prefix ending in "/"). */
const INLINED = [
  "@tackle/agent-core",
  "@tackle/ai-sdk",
  "@tackle/extensions",
  "@tackle/operations",
  "@tackle/operations-local",
  "@tackle/session",
  "@tackle/shell-policy",
  "@tackle/tools",
  "@tackle/tree-sitter",
  "@sinclair/typebox",
  "diff",
  "strip-ansi",
  "ansi-regex",
];

/** The package name of a bare specifier: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
function packageOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

const builtins = new Set(builtinModules);
const isBuiltin = (specifier) => specifier.startsWith("node:") || builtins.has(packageOf(specifier));

/** Marks every bare import outside INLINED as external (resolved at run time). */
const externalPackages = {
  name: "external-packages",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      if (INLINED.includes(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const outdir = join(packageDir, "dist");
// Chunks of an earlier build carry other hashes: start from an empty chunk directory.
rmSync(join(outdir, "bin-chunks"), { recursive: true, force: true });

const result = await build({
  absWorkingDir: packageDir,
  entryPoints: { bin: "src/bin.ts" },
  outdir,
  entryNames: "[name]",
  chunkNames: "bin-chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22",
  // Minified: V8 parses about half the bytes (start-up measured 1.87x -> 1.53x bare node).
  // Stack traces read through the maps: NODE_OPTIONS=--enable-source-maps.
  minify: true,
  // Maps point at the TypeScript sources through the input maps of each package's dist; the
  // sources are embedded because most of them live in other packages.
  sourcemap: "linked",
  sourcesContent: true,
  plugins: [externalPackages],
  metafile: true,
  logLevel: "warning",
  // Tackle's bundled dist/ entry points import some of their chunks only for evaluation order;
  // the packages declare no side effects, so leaving out the chunks nothing uses is right.
  logOverride: { "ignored-bare-import": "silent" },
});

/** The directory and name of the package holding `file` (its nearest package.json with a name). */
function owningPackage(file) {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (!existsSync(path)) continue;
    const { name } = JSON.parse(readFileSync(path, "utf8"));
    if (name) return { dir, name };
  }
  return undefined;
}

/**
 * Map sources outside this package (other Tackle packages' `src/`, TypeBox) are named as the
 * dependency they come from, `node_modules/<name>/<path>` from this package, instead of a path
 * into the build machine's checkout; their text is embedded in the map (`sourcesContent`).
 */
function renameForeignSources(mapFile) {
  const map = JSON.parse(readFileSync(mapFile, "utf8"));
  map.sources = map.sources.map((source) => {
    const file = resolve(dirname(mapFile), source);
    if (file.startsWith(packageDir + sep)) return source;
    const owner = owningPackage(file);
    if (!owner) return source;
    const named = join(packageDir, "node_modules", owner.name, relative(owner.dir, file));
    return relative(dirname(mapFile), named).split(sep).join("/");
  });
  writeFileSync(mapFile, JSON.stringify(map));
}

for (const output of Object.keys(result.metafile.outputs)) {
  if (output.endsWith(".map")) renameForeignSources(join(packageDir, output));
}

// Every import left for run time must resolve from this package: a dependency of the CLI.
const declared = new Set([
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.optionalDependencies ?? {}),
]);
const undeclared = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path, external } of output.imports) {
    if (external && !isBuiltin(path) && !declared.has(packageOf(path))) undeclared.add(packageOf(path));
  }
}
if (undeclared.size > 0) {
  console.error(
    `bundle-bin: the bundle imports ${[...undeclared].join(", ")} at run time; add them to the dependencies of @tackle/cli (or to INLINED).`,
  );
  process.exit(1);
}
