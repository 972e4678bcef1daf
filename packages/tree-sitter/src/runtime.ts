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
  parse(
    text: string,
    oldTree?: SyntaxTree | null,
    options?: { progressCallback?: (state: { currentOffset: number }) => boolean },
  ): SyntaxTree | null;
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

/**
 * A parse that runs in steps, for work off a caller's critical path (see {@link startParse}):
 * each `step` parses until a deadline, `finish` parses the rest at once. Once it has returned
 * a tree, or after `cancel()`, it holds nothing.
 */
export interface SteppedParse {
  /** How much of the text has been parsed, from 0 to 1. */
  readonly progress: number;
  /** True once a tree was returned or the parse was cancelled. */
  readonly ended: boolean;
  /**
   * Parses until done or until `performance.now()` passes `deadline`; returns the tree (which
   * the caller owns) when done, undefined when there is more to parse.
   */
  step(deadline: number): SyntaxTree | undefined;
  /** Parses the rest without stopping and returns the tree (which the caller owns). */
  finish(): SyntaxTree;
  /** Stops the parse and frees its parser. Idempotent. */
  cancel(): void;
}

/**
 * Starts a parse of `text` that runs in steps. It has a parser of its own: tree-sitter resumes a
 * halted parse where it stopped on the next call to the same parser, and parses made meanwhile
 * with {@link parseTree} (other parsers) do not disturb it. The text must stay the same for
 * the whole parse (JS strings do). A step stops at the first progress report past its deadline;
 * tree-sitter reports every few dozen microseconds of work.
 */
export async function startParse(grammar: LoadedGrammar, text: string): Promise<SteppedParse> {
  const module = await loadRuntime();
  let parser: ParserInstance | undefined = new module.Parser();
  parser.setLanguage(grammar.language);
  // web-tree-sitter reads JS strings as UTF-16: offsets are in bytes, two per code unit.
  const totalBytes = Math.max(2 * text.length, 1);
  let offset = 0;
  const end = (tree: SyntaxTree | null): SyntaxTree => {
    parser?.delete();
    parser = undefined;
    if (!tree) throw new Error(`tree-sitter could not parse with ${grammar.wasmPath}`);
    return tree;
  };
  const active = (): ParserInstance => {
    if (!parser) throw new Error("this parse has ended");
    return parser;
  };
  return {
    get progress() {
      return parser ? Math.min(offset / totalBytes, 1) : 1;
    },
    get ended() {
      return parser === undefined;
    },
    step(deadline) {
      const tree = active().parse(text, null, {
        progressCallback: (state) => {
          offset = state.currentOffset;
          return performance.now() > deadline;
        },
      });
      return tree ? end(tree) : undefined;
    },
    finish() {
      return end(active().parse(text, null));
    },
    cancel() {
      parser?.delete();
      parser = undefined;
    },
  };
}
