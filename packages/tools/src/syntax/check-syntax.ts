import { loadGrammar, parseTree, type SyntaxTree } from "@tackle/tree-sitter";
import { settleBackgroundParse } from "./background-parse.js";
import { SYNTAX_LANGUAGES, type SyntaxLanguage, SyntaxUnavailableError } from "./languages.js";
import { markdownFenceProblems } from "./markdown-fences.js";
import { cachedVerdict, forgetFile, latestTree, remember } from "./parse-cache.js";
import type { SyntaxProblem } from "./syntax-problem.js";
import { textEdit } from "./text-edit.js";
import { treeVerdict } from "./tree-verdict.js";

/**
 * What a syntax check found: `parses`, `errors` (with the first problems), `unsupported` (no
 * parser for this kind of file) or `unavailable` (the parser's package is not installed, or
 * its grammar did not load).
 */
export interface SyntaxCheck {
  status: "parses" | "errors" | "unsupported" | "unavailable";
  /** Language id (`typescript`, `yaml`, ...), when the file is of a known kind. */
  language?: string;
  /** Name of the language for the model (`TypeScript`, `YAML`). */
  label?: string;
  /** For `errors`: the first problems, in file order. */
  problems: SyntaxProblem[];
  /** For `unavailable`: why. */
  reason?: string;
}

/**
 * Largest text the syntax check parses (UTF-16 code units, about bytes for source code): a
 * generated or minified file past it is not what a model edits by hand, and parsing it would
 * cost more than the edit itself.
 */
export const MAX_SYNTAX_CHECK_CHARS = 1024 * 1024;

/** How a check uses the parse cache (see `parse-cache.ts`). */
export interface CheckOptions {
  /** Identifies the file across checks (environment and real path). Absent: nothing is cached. */
  cacheKey?: string;
  /** Keep this text as the file's latest (true for the text a tool wrote). Default false: lookup only. */
  remember?: boolean;
}

const byExtension = new Map<string, SyntaxLanguage>();
const byTag = new Map<string, SyntaxLanguage>();
for (const language of SYNTAX_LANGUAGES) {
  for (const extension of language.extensions) byExtension.set(extension, language);
  for (const tag of [language.id, ...(language.aliases ?? [])]) byTag.set(tag, language);
}

const markdown: SyntaxLanguage = {
  id: "markdown",
  label: "Markdown",
  extensions: [".md", ".markdown"],
  check: (text) =>
    markdownFenceProblems(text, (tag) => {
      const language = byTag.get(tag);
      return language ? (body) => problemsOnce(language, body) : undefined;
    }),
};
for (const extension of markdown.extensions) byExtension.set(extension, markdown);

/** The language of a file, by its extension (case-insensitive), or undefined. */
export function syntaxLanguageOf(path: string): SyntaxLanguage | undefined {
  const name = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return undefined;
  return byExtension.get(name.slice(dot).toLowerCase());
}

/**
 * Checks whether `text` parses as the language of `path`. Never throws for a problem of the
 * text; a parser that cannot be loaded is reported as `unavailable`.
 */
export async function checkSyntax(
  path: string,
  text: string,
  options: CheckOptions = {},
): Promise<SyntaxCheck> {
  const language = syntaxLanguageOf(path);
  if (!language) return { status: "unsupported", problems: [] };
  const known = { language: language.id, label: language.label };
  try {
    const problems = await problemsWithCache(language, text, options);
    return { status: problems.length > 0 ? "errors" : "parses", ...known, problems };
  } catch (error) {
    const reason =
      error instanceof SyntaxUnavailableError
        ? error.message
        : `the ${language.label} parser did not load: ${error instanceof Error ? error.message : String(error)}`;
    return { status: "unavailable", ...known, problems: [], reason };
  }
}

async function problemsWithCache(language: SyntaxLanguage, text: string, options: CheckOptions) {
  const key = options.cacheKey;
  if (key === undefined) return problemsOnce(language, text);
  // A background parse of this file (after a read) is finished or dropped before the cache is read.
  settleBackgroundParse(key);
  const cached = cachedVerdict(key, language.id, text);
  if (cached) return cached;
  if (!options.remember) return problemsOnce(language, text);
  if (!language.grammar) {
    const problems = await problemsOnce(language, text);
    remember(key, { language: language.id, text, problems });
    return problems;
  }
  const grammar = await loadGrammar(language.grammar());
  // A read may have queued another one while the grammar loaded.
  settleBackgroundParse(key);
  const latest = latestTree(key, language.id);
  // The cached tree is edited in place to describe `text`; its entry is replaced right after.
  let tree: SyntaxTree;
  try {
    if (latest) latest.tree.edit(textEdit(latest.text, text));
    tree = await parseTree(grammar, text, latest?.tree);
  } catch (error) {
    forgetFile(key);
    throw error;
  }
  const problems = treeVerdict(language, text, tree);
  remember(key, { language: language.id, text, problems }, tree);
  return problems;
}

/** A check that keeps nothing: a tree is parsed in full and freed. */
async function problemsOnce(language: SyntaxLanguage, text: string): Promise<SyntaxProblem[]> {
  if (!language.grammar) return language.check ? language.check(text) : [];
  const tree: SyntaxTree = await parseTree(await loadGrammar(language.grammar()), text);
  try {
    return treeVerdict(language, text, tree);
  } finally {
    tree.delete();
  }
}
