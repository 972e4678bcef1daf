// Build step of @tackle/shell-policy: copies the two grammars the policy parses with (bash,
// PowerShell) out of @vscode/tree-sitter-wasm (a devDependency) into `wasm/`, which the package
// ships. The runtime they load on is @tackle/tree-sitter's, copied from the same version of the
// same package (same ABI). The other 14 grammars of that package are not shipped.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const sourcePackage = path.dirname(require.resolve("@vscode/tree-sitter-wasm/package.json"));
const source = JSON.parse(fs.readFileSync(path.join(sourcePackage, "package.json"), "utf8"));

/** The grammars `src/parser.ts` loads (its `GrammarName`). */
const GRAMMARS = ["bash", "powershell"];

/** [file in the source package's wasm/ directory, name in ours]. */
const FILES = GRAMMARS.map((name) => [`tree-sitter-${name}.wasm`, `tree-sitter-${name}.wasm`]);

const target = path.join(packageDir, "wasm");
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target);
for (const [from, to] of FILES)
  fs.copyFileSync(path.join(sourcePackage, "wasm", from), path.join(target, to));
fs.copyFileSync(path.join(sourcePackage, "LICENSE"), path.join(target, "LICENSE"));
fs.writeFileSync(
  path.join(target, "README.md"),
  `# Vendored tree-sitter grammars

Copied at build time from \`${source.name}@${source.version}\` (${source.license}, licence in
\`LICENSE\` here): the grammars ${GRAMMARS.map((name) => `\`tree-sitter-${name}.wasm\``).join(" and ")}
(tree-sitter-bash, MIT; tree-sitter-powershell, MIT). The shell policy parses commands with them
on the runtime of @tackle/tree-sitter; nothing is downloaded at run time.
`,
);
