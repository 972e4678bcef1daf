// Build step of @tackle/tree-sitter: copies the tree-sitter runtime (web-tree-sitter's UMD build
// and its WASM) out of @vscode/tree-sitter-wasm (a devDependency) into `wasm/`, which the package
// ships. No grammar is copied: the packages that parse ship or find their own.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const sourcePackage = path.dirname(require.resolve("@vscode/tree-sitter-wasm/package.json"));
const source = JSON.parse(fs.readFileSync(path.join(sourcePackage, "package.json"), "utf8"));

/** [file in the source package's wasm/ directory, name in ours]. */
const FILES = [
  // A UMD build of web-tree-sitter: `.cjs` so Node loads it as CommonJS in this ESM package.
  ["tree-sitter.js", "tree-sitter.cjs"],
  ["tree-sitter.wasm", "tree-sitter.wasm"],
];

const target = path.join(packageDir, "wasm");
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target);
for (const [from, to] of FILES)
  fs.copyFileSync(path.join(sourcePackage, "wasm", from), path.join(target, to));
fs.copyFileSync(path.join(sourcePackage, "LICENSE"), path.join(target, "LICENSE"));
fs.writeFileSync(
  path.join(target, "README.md"),
  `# Vendored tree-sitter runtime

Copied at build time from \`${source.name}@${source.version}\` (${source.license}, licence in
\`LICENSE\` here): the tree-sitter runtime (\`tree-sitter.cjs\`, \`tree-sitter.wasm\`: web-tree-sitter,
MIT). Grammars built for the same ABI load on it; nothing is downloaded at run time.
`,
);
