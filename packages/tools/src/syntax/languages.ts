import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { jsonProblems, tomlProblems, yamlProblems } from "./data-formats.js";
import { pythonIndentationProblem } from "./python-indentation.js";
import type { SyntaxProblem } from "./syntax-problem.js";

/**
 * Which languages the syntax check knows, by file extension, and where each one's parser comes
 * from:
 * - the code languages, bash and PowerShell among them: tree-sitter grammars from
 *   `@vscode/tree-sitter-wasm`, an optional peer dependency pinned to the version the runtime of
 *   `@tackle/tree-sitter` comes from (same ABI). Not installed: files of those languages are not
 *   checked (status `unavailable`), everything else works;
 * - JSON, YAML, TOML: small parser libraries (see `data-formats.ts`);
 * - Markdown: its fenced code blocks, each checked as its info string's language.
 */

/** The package that holds the code grammars, and the version the vendored runtime matches. */
export const GRAMMAR_PACKAGE = "@vscode/tree-sitter-wasm";

/** Checks a text: the problems found, in file order (empty: it parses). */
export type SyntaxChecker = (text: string) => Promise<SyntaxProblem[]>;

/** A language the syntax check knows: a tree-sitter grammar, or a checker of its own. */
export interface SyntaxLanguage {
  /** Stable id (`typescript`, `python`, `json`, ...), also a Markdown fence tag it answers to. */
  id: string;
  /** Name shown to the model. */
  label: string;
  extensions: readonly string[];
  /** Other fence info strings for this language (`ts`, `py`, `yml`, ...). */
  aliases?: readonly string[];
  /** The grammar's WASM file (throws {@link SyntaxUnavailableError} when its package is missing). */
  grammar?: () => string;
  /** A problem the grammar recovers from without an error node (Python's indentation). */
  extraProblem?: (text: string) => SyntaxProblem | undefined;
  /** For a language without a grammar: its whole check. */
  check?: SyntaxChecker;
}

/** Thrown when a language's parser is not installed (see {@link GRAMMAR_PACKAGE}). */
export class SyntaxUnavailableError extends Error {
  readonly code = "syntax_unavailable";
}

const require = createRequire(import.meta.url);
let grammarDir: string | null | undefined;

/** `wasm/` of the installed grammar package, or null when it is not installed. */
function installedGrammarDir(): string | null {
  if (grammarDir === undefined) {
    try {
      grammarDir = join(dirname(require.resolve(`${GRAMMAR_PACKAGE}/package.json`)), "wasm");
    } catch {
      grammarDir = null;
    }
  }
  return grammarDir;
}

/** A grammar of the optional grammar package. */
function packaged(file: string): () => string {
  return () => {
    const dir = installedGrammarDir();
    if (dir === null) throw new SyntaxUnavailableError(`${GRAMMAR_PACKAGE} is not installed`);
    return join(dir, `tree-sitter-${file}.wasm`);
  };
}

const code = (
  id: string,
  label: string,
  extensions: readonly string[],
  aliases: readonly string[] = [],
  file = id,
): SyntaxLanguage => ({ id, label, extensions, aliases, grammar: packaged(file) });

/** Every language of the syntax check. Markdown is added by `check-syntax.ts` (it uses the others). */
export const SYNTAX_LANGUAGES: readonly SyntaxLanguage[] = [
  code("typescript", "TypeScript", [".ts", ".mts", ".cts"], ["ts"]),
  code("tsx", "TSX", [".tsx"]),
  code("javascript", "JavaScript", [".js", ".mjs", ".cjs", ".jsx"], ["js", "jsx", "node"]),
  {
    ...code("python", "Python", [".py", ".pyi"], ["py", "python3"]),
    extraProblem: pythonIndentationProblem,
  },
  code("go", "Go", [".go"], ["golang"]),
  code("rust", "Rust", [".rs"], ["rs"]),
  code("java", "Java", [".java"]),
  code("csharp", "C#", [".cs"], ["cs", "c#"], "c-sharp"),
  code("cpp", "C++", [".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx"], ["c++"]),
  code("css", "CSS", [".css"]),
  code("php", "PHP", [".php"]),
  code("ruby", "Ruby", [".rb"], ["rb"]),
  {
    id: "bash",
    label: "Bash",
    extensions: [".sh", ".bash"],
    aliases: ["sh", "shell"],
    grammar: packaged("bash"),
  },
  {
    id: "powershell",
    label: "PowerShell",
    extensions: [".ps1", ".psm1"],
    aliases: ["pwsh", "ps1"],
    grammar: packaged("powershell"),
  },
  { id: "json", label: "JSON", extensions: [".json", ".jsonc"], aliases: ["jsonc"], check: jsonProblems },
  { id: "yaml", label: "YAML", extensions: [".yaml", ".yml"], aliases: ["yml"], check: yamlProblems },
  { id: "toml", label: "TOML", extensions: [".toml"], check: tomlProblems },
];
