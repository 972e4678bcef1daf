import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The tree-sitter runtime and the bash and PowerShell grammars, loaded from the files that
 * `@vscode/tree-sitter-wasm` ships (its bundled `tree-sitter.js` is the web-tree-sitter
 * runtime, so no second package is needed). Nothing is downloaded: the WASM files are local.
 */

/** The subset of a tree-sitter syntax node the rules use. */
export interface SyntaxNode {
  type: string;
  isNamed: boolean;
  text: string;
  startIndex: number;
  endIndex: number;
  childCount: number;
  namedChildren: (SyntaxNode | null)[];
  children: (SyntaxNode | null)[];
  parent: SyntaxNode | null;
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): (SyntaxNode | null)[];
}

interface Tree {
  rootNode: SyntaxNode;
  delete(): void;
}

interface ParserInstance {
  setLanguage(language: unknown): void;
  parse(text: string): Tree | null;
  delete(): void;
}

interface TreeSitterModule {
  Parser: { init(options: { locateFile: (file: string) => string }): Promise<void>; new (): ParserInstance };
  Language: { load(path: string): Promise<unknown> };
}

/** Grammar names this module can load. */
export type GrammarName = "bash" | "powershell";

const require = createRequire(import.meta.url);
let runtime: Promise<{ module: TreeSitterModule; wasmDir: string }> | undefined;
const languages = new Map<GrammarName, Promise<unknown>>();

function loadRuntime(): Promise<{ module: TreeSitterModule; wasmDir: string }> {
  runtime ??= (async () => {
    const wasmDir = join(dirname(require.resolve("@vscode/tree-sitter-wasm/package.json")), "wasm");
    const module = require(join(wasmDir, "tree-sitter.js")) as TreeSitterModule;
    await module.Parser.init({ locateFile: (file) => join(wasmDir, file) });
    return { module, wasmDir };
  })();
  return runtime;
}

function loadLanguage(name: GrammarName): Promise<unknown> {
  let language = languages.get(name);
  if (!language) {
    language = loadRuntime().then(({ module, wasmDir }) =>
      module.Language.load(join(wasmDir, `tree-sitter-${name}.wasm`)),
    );
    languages.set(name, language);
  }
  return language;
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
  const { module } = await loadRuntime();
  const language = await loadLanguage(name);
  const parser = new module.Parser();
  try {
    parser.setLanguage(language);
    const tree = parser.parse(text);
    if (!tree) throw new Error(`tree-sitter could not parse the ${name} command`);
    try {
      return visit(tree.rootNode);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
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
