// Build step of @tackle/tools: copies the tree-sitter runtime and the two grammars the shell
// policy parses with (bash, PowerShell) out of @vscode/tree-sitter-wasm (a devDependency) into
// `wasm/`, which the package ships. The other 14 grammars of that package are not shipped.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const sourcePackage = path.dirname(require.resolve("@vscode/tree-sitter-wasm/package.json"));
const source = JSON.parse(fs.readFileSync(path.join(sourcePackage, "package.json"), "utf8"));

/** The grammars `src/shell/policy/parser.ts` loads (its `GrammarName`). */
const GRAMMARS = ["bash", "powershell"];

/** [file in the source package's wasm/ directory, name in ours]. */
const FILES = [
  // A UMD build of web-tree-sitter: `.cjs` so Node loads it as CommonJS in this ESM package.
  ["tree-sitter.js", "tree-sitter.cjs"],
  ["tree-sitter.wasm", "tree-sitter.wasm"],
  ...GRAMMARS.map((name) => [`tree-sitter-${name}.wasm`, `tree-sitter-${name}.wasm`]),
];

const target = path.join(packageDir, "wasm");
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target);
for (const [from, to] of FILES)
  fs.copyFileSync(path.join(sourcePackage, "wasm", from), path.join(target, to));
fs.copyFileSync(path.join(sourcePackage, "LICENSE"), path.join(target, "LICENSE"));
fs.writeFileSync(
  path.join(target, "README.md"),
  `# Vendored tree-sitter files

Copied at build time from \`${source.name}@${source.version}\` (${source.license}, licence in
\`LICENSE\` here): the tree-sitter runtime (\`tree-sitter.cjs\`, \`tree-sitter.wasm\`: web-tree-sitter,
MIT) and the grammars ${GRAMMARS.map((name) => `\`tree-sitter-${name}.wasm\``).join(" and ")}
(tree-sitter-bash, MIT; tree-sitter-powershell, MIT). The shell policy of @tackle/tools parses
commands with them; nothing is downloaded at run time.
`,
);
