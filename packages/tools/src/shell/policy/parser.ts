import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The tree-sitter runtime and the bash and PowerShell grammars, from the package's own `wasm/`
 * directory (the build copies exactly these files there; see `scripts/copy-wasm.mjs`). They are
 * loaded on the first command a shell policy checks, never at import; nothing is downloaded.
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
/**
 * `<package>/wasm/`, found by the package's own name rather than this file's place: the CLI's
 * bundled binary runs this code from its own `dist/`, and reaches the installed tools package.
 */
function packageWasmDir(): string {
  return join(dirname(require.resolve("@tackle/tools/package.json")), "wasm");
}
let runtime: Promise<{ module: TreeSitterModule; wasmDir: string }> | undefined;
const languages = new Map<GrammarName, Promise<unknown>>();

function loadRuntime(): Promise<{ module: TreeSitterModule; wasmDir: string }> {
  runtime ??= (async () => {
    const wasmDir = packageWasmDir();
    const entry = join(wasmDir, "tree-sitter.cjs");
    // Only a source checkout that was never built lacks it; the published package ships it.
    if (!existsSync(entry))
      throw new Error(`tree-sitter runtime missing at ${entry}: run the tools package's build`);
    const module = require(entry) as TreeSitterModule;
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
