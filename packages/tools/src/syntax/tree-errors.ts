import type { SyntaxNode } from "@tackle/tree-sitter";
import { MAX_SYNTAX_PROBLEMS, type SyntaxProblem } from "./syntax-problem.js";

/** Longest piece of source quoted in a problem's message. */
const QUOTE_CHARS = 24;

/**
 * The error nodes of a tree-sitter tree (`ERROR` and `MISSING`), in file order, at most
 * {@link MAX_SYNTAX_PROBLEMS}. Only subtrees that contain an error are visited, so a clean
 * tree costs one flag read.
 */
export function treeProblems(root: SyntaxNode): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  if (!root.hasError) return problems;
  const visit = (node: SyntaxNode): void => {
    if (problems.length >= MAX_SYNTAX_PROBLEMS) return;
    if (node.isMissing) {
      problems.push(problemAt(node, `missing ${quote(node.type)}`));
      return;
    }
    if (node.type === "ERROR") {
      problems.push(problemAt(node, `unexpected ${quote(node.text)}`));
      return;
    }
    for (const child of node.children) if (child && (child.hasError || child.isMissing)) visit(child);
  };
  visit(root);
  return problems;
}

function problemAt(node: SyntaxNode, message: string): SyntaxProblem {
  return { line: node.startPosition.row + 1, column: node.startPosition.column + 1, message };
}

/** The first line of `text`, cut to {@link QUOTE_CHARS}, in double quotes. */
function quote(text: string): string {
  const firstLine = text.split("\n", 1)[0] ?? "";
  const cut = firstLine.length > QUOTE_CHARS ? `${firstLine.slice(0, QUOTE_CHARS)}...` : firstLine;
  return JSON.stringify(cut.trim() === "" ? text.slice(0, QUOTE_CHARS) : cut);
}
