import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The one tree-sitter runtime of the process (web-tree-sitter, vendored in the package's `wasm/`
 * directory by `scripts/copy-runtime.mjs`), shared by every Tackle package that parses: the shell
 * policy (`@tackle/shell-policy`) and the syntax check after edits (`@tackle/tools`). One copy
 * of this package is installed for both (they depend on the same range), so Node loads this
 * module once and the runtime below is initialised once: a grammar loaded here works with every
 * parser made here. It is loaded on first use, never at import, and each grammar at most once.
 */

/** A position in a parsed text: 0-based row and column. */
export interface SyntaxPoint {
  row: number;
  column: number;
}

/** The subset of a tree-sitter syntax node that Tackle reads. */
export interface SyntaxNode {
  type: string;
  isNamed: boolean;
  isMissing: boolean;
  hasError: boolean;
  text: string;
  startIndex: number;
  endIndex: number;
  startPosition: SyntaxPoint;
  childCount: number;
  namedChildren: (SyntaxNode | null)[];
  children: (SyntaxNode | null)[];
  parent: SyntaxNode | null;
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): (SyntaxNode | null)[];
}

/** An edit of a text a tree was parsed from, in UTF-16 code units (web-tree-sitter's units for JS strings). */
export interface SyntaxEdit {
  startIndex: number;
  oldEndIndex: number;
  newEndIndex: number;
  startPosition: SyntaxPoint;
  oldEndPosition: SyntaxPoint;
  newEndPosition: SyntaxPoint;
}

/** A parsed tree in WASM memory: `delete()` it when done. */
export interface SyntaxTree {
  rootNode: SyntaxNode;
  edit(edit: SyntaxEdit): void;
  delete(): void;
}

interface ParserInstance {
  setLanguage(language: unknown): void;
  parse(text: string, oldTree?: SyntaxTree | null): SyntaxTree | null;
  delete(): void;
}

interface TreeSitterModule {
  Parser: { init(options: { locateFile: (file: string) => string }): Promise<void>; new (): ParserInstance };
  Language: { load(path: string): Promise<unknown> };
}

/** A grammar as the runtime loaded it (opaque outside this module). */
export interface LoadedGrammar {
  readonly wasmPath: string;
  readonly language: unknown;
}

const require = createRequire(import.meta.url);

/**
 * `<package>/wasm/`, found by the package's own name rather than this file's place: the CLI's
 * bundled binary runs this code from its own `dist/`, and reaches the installed package.
 */
function runtimeDir(): string {
  return join(dirname(require.resolve("@tackle/tree-sitter/package.json")), "wasm");
}

/** What the process holds once: the initialised runtime and each grammar loaded on it. */
interface RuntimeState {
  runtime?: Promise<TreeSitterModule>;
  grammars: Map<string, Promise<LoadedGrammar>>;
}

/**
 * Process-wide, not module-wide: two copies of this package in one process (a bundle that
 * inlined it beside an installed copy, two versions side by side) still share one runtime, since
 * a second `Parser.init()` would start a second WASM instance and the grammars loaded on the first
 * would not work with parsers of the second.
 */
const STATE_KEY = Symbol.for("@tackle/tree-sitter/runtime");
const holder = globalThis as Record<symbol, RuntimeState | undefined>;
const state: RuntimeState = holder[STATE_KEY] ?? { grammars: new Map() };
holder[STATE_KEY] = state;
const grammars = state.grammars;

function loadRuntime(): Promise<TreeSitterModule> {
  state.runtime ??= (async () => {
    const wasmDir = runtimeDir();
    const entry = join(wasmDir, "tree-sitter.cjs");
    // Only a source checkout that was never built lacks it; the published package ships it.
    if (!existsSync(entry))
      throw new Error(`tree-sitter runtime missing at ${entry}: run the build of @tackle/tree-sitter`);
    const module = require(entry) as TreeSitterModule;
    await module.Parser.init({ locateFile: (file) => join(wasmDir, file) });
    return module;
  })();
  return state.runtime;
}

/**
 * Loads the grammar in the WASM file at `wasmPath` once per process. A grammar that fails to
 * load (missing file, a language ABI the runtime does not support) rejects every time it is
 * asked for, without retrying.
 */
export function loadGrammar(wasmPath: string): Promise<LoadedGrammar> {
  let grammar = grammars.get(wasmPath);
  if (!grammar) {
    grammar = loadRuntime().then(async (module) => ({
      wasmPath,
      language: await module.Language.load(wasmPath),
    }));
    grammars.set(wasmPath, grammar);
  }
  return grammar;
}

/**
 * Parses `text` with `grammar` and hands the root node to `visit`. The tree lives in WASM
 * memory, so it is freed when `visit` returns; nodes must not escape the callback.
 */
export async function parseWith<T>(
  grammar: LoadedGrammar,
  text: string,
  visit: (root: SyntaxNode) => T,
): Promise<T> {
  const module = await loadRuntime();
  const parser = new module.Parser();
  try {
    parser.setLanguage(grammar.language);
    const tree = parser.parse(text);
    if (!tree) throw new Error(`tree-sitter could not parse with ${grammar.wasmPath}`);
    try {
      return visit(tree.rootNode);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** One parser per grammar, reused: parsing is synchronous, so calls never overlap. */
const parsers = new Map<LoadedGrammar, ParserInstance>();

/**
 * Parses `text` and returns the tree, which the caller owns (and must `delete()`). With
 * `oldTree` (already `edit()`ed to match `text`), tree-sitter reuses its unchanged parts: a
 * small change to a large file re-parses in a fraction of a full parse.
 */
export async function parseTree(
  grammar: LoadedGrammar,
  text: string,
  oldTree?: SyntaxTree,
): Promise<SyntaxTree> {
  const module = await loadRuntime();
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = new module.Parser();
    parser.setLanguage(grammar.language);
    parsers.set(grammar, parser);
  }
  const tree = parser.parse(text, oldTree ?? null);
  if (!tree) throw new Error(`tree-sitter could not parse with ${grammar.wasmPath}`);
  return tree;
}
