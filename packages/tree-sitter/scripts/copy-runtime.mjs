// Build step of @tackle/tree-sitter: the tree-sitter runtime (web-tree-sitter's UMD build and
// its WASM) into `wasm/`, which the package ships. No grammar: the packages that parse ship or
// find their own.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { vendorTreeSitterFiles } from "../../../scripts/vendor-tree-sitter.mjs";

vendorTreeSitterFiles({
  packageDir: path.dirname(path.dirname(fileURLToPath(import.meta.url))),
  files: [
    // A UMD build of web-tree-sitter: `.cjs` so Node loads it as CommonJS in this ESM package.
    ["tree-sitter.js", "tree-sitter.cjs"],
    ["tree-sitter.wasm", "tree-sitter.wasm"],
  ],
  about: (source) => `# Vendored tree-sitter runtime

Copied at build time from \`${source.name}@${source.version}\` (${source.license}, licence in
\`LICENSE\` here): the tree-sitter runtime (\`tree-sitter.cjs\`, \`tree-sitter.wasm\`: web-tree-sitter,
MIT). Grammars built for the same ABI load on it; nothing is downloaded at run time.
`,
});
