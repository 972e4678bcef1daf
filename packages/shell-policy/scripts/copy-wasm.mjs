// Build step of @tackle/shell-policy: the two grammars the policy parses with (bash, PowerShell)
// into `wasm/`, which the package ships. The runtime they load on is @tackle/tree-sitter's,
// copied from the same version of the same package (same ABI). The other 14 grammars of that
// package are not shipped.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { vendorTreeSitterFiles } from "../../../scripts/vendor-tree-sitter.mjs";

/** The grammars `src/parser.ts` loads (its `GrammarName`). */
const GRAMMARS = ["bash", "powershell"];

vendorTreeSitterFiles({
  packageDir: path.dirname(path.dirname(fileURLToPath(import.meta.url))),
  files: GRAMMARS.map((name) => [`tree-sitter-${name}.wasm`, `tree-sitter-${name}.wasm`]),
  about: (source) => `# Vendored tree-sitter grammars

Copied at build time from \`${source.name}@${source.version}\` (${source.license}, licence in
\`LICENSE\` here): the grammars ${GRAMMARS.map((name) => `\`tree-sitter-${name}.wasm\``).join(" and ")}
(tree-sitter-bash, MIT; tree-sitter-powershell, MIT). The shell policy parses commands with them
on the runtime of @tackle/tree-sitter; nothing is downloaded at run time.
`,
});
