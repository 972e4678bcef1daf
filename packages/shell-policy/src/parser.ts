import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { loadGrammar, parseWith, type SyntaxNode } from "@tackle/tree-sitter";

/**
 * The bash and PowerShell grammars, from the package's own `wasm/` directory (the build copies
 * exactly these files there; see `scripts/copy-wasm.mjs`), on the process's one tree-sitter
 * runtime (`@tackle/tree-sitter`). They are loaded on the first command the grammar path checks,
 * never at import.
 */

export type { SyntaxNode } from "@tackle/tree-sitter";

/** Grammar names this module can load. */
export type GrammarName = "bash" | "powershell";

const require = createRequire(import.meta.url);

/**
 * The WASM file of a grammar the package ships: `<package>/wasm/`, found by the package's own
 * name rather than this file's place, since a bundle (the CLI's binary) runs this code from its
 * own `dist/` and reaches the installed package.
 */
export function shippedGrammarPath(name: GrammarName): string {
  return join(
    dirname(require.resolve("@tackle/shell-policy/package.json")),
    "wasm",
    `tree-sitter-${name}.wasm`,
  );
}

/**
 * Parses `text` with the named grammar and hands the root node to `visit`. The tree lives in
 * WASM memory, so it is freed when `visit` returns; nodes must not escape the callback.
 */
export async function withSyntaxTree<T>(
  name: GrammarName,
  text: string,
  visit: (root: SyntaxNode) => T,
): Promise<T> {
  return parseWith(await loadGrammar(shippedGrammarPath(name)), text, visit);
}

/** Every descendant of `node` (depth first, including `node`) whose type is in `types`. */
export function descendantsOfType(node: SyntaxNode, types: ReadonlySet<string>): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const stack: SyntaxNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop() as SyntaxNode;
    if (types.has(current.type)) out.push(current);
    for (let i = current.namedChildren.length - 1; i >= 0; i--) {
      const child = current.namedChildren[i];
      if (child) stack.push(child);
    }
  }
  return out;
}
