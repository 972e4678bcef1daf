// Build step of the packages that ship tree-sitter files (@tackle/tree-sitter: the runtime;
// @tackle/shell-policy: the bash and PowerShell grammars): copies the named files out of
// @vscode/tree-sitter-wasm (a devDependency of the package) into the package's `wasm/`, with that
// package's licence and a README saying where they come from. Only the files named are shipped.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Replaces `<packageDir>/wasm/` with `files` ([name in the source's wasm/, name in ours]), the
 * source's LICENSE, and a README whose body is `about(source)` (`source`: its package.json).
 */
export function vendorTreeSitterFiles({ packageDir, files, about }) {
  const require = createRequire(path.join(packageDir, "package.json"));
  const sourcePackage = path.dirname(require.resolve("@vscode/tree-sitter-wasm/package.json"));
  const source = JSON.parse(fs.readFileSync(path.join(sourcePackage, "package.json"), "utf8"));
  const target = path.join(packageDir, "wasm");
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target);
  for (const [from, to] of files)
    fs.copyFileSync(path.join(sourcePackage, "wasm", from), path.join(target, to));
  fs.copyFileSync(path.join(sourcePackage, "LICENSE"), path.join(target, "LICENSE"));
  fs.writeFileSync(path.join(target, "README.md"), about(source));
}
