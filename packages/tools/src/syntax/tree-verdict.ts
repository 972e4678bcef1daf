import type { SyntaxTree } from "@tackle/tree-sitter";
import type { SyntaxLanguage } from "./languages.js";
import { firstProblems, type SyntaxProblem } from "./syntax-problem.js";
import { treeProblems } from "./tree-errors.js";

/**
 * The problems of `text` from its tree: the tree's error nodes, plus the language's own extra
 * check (Python's indentation). One place, so a check on the edit's path and a parse made in the
 * background give the same verdict for the same text.
 */
export function treeVerdict(language: SyntaxLanguage, text: string, tree: SyntaxTree): SyntaxProblem[] {
  const problems = treeProblems(tree.rootNode);
  const extra = language.extraProblem?.(text);
  return extra ? firstProblems([...problems, extra]) : problems;
}
