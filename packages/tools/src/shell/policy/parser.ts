import { join } from "node:path";
import { loadGrammar, packageWasmDir, parseWith, type SyntaxNode } from "../../syntax/tree-sitter-runtime.js";

/**
 * The bash and PowerShell grammars, from the package's own `wasm/` directory (the build copies
 * exactly these files there; see `scripts/copy-wasm.mjs`), on the process's one tree-sitter
 * runtime. They are loaded on the first command a shell policy checks, never at import.
 */

export type { SyntaxNode } from "../../syntax/tree-sitter-runtime.js";

/** Grammar names this module can load. */
export type GrammarName = "bash" | "powershell";

/** The WASM file of a grammar the package ships. */
export function shippedGrammarPath(name: GrammarName): string {
  return join(packageWasmDir(), `tree-sitter-${name}.wasm`);
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
