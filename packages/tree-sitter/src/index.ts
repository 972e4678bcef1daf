/**
 * `@tackle/tree-sitter`: the one tree-sitter runtime of a process (web-tree-sitter, vendored),
 * loaded on first use; grammars come from the packages that parse with them.
 */
export type {
  LoadedGrammar,
  SteppedParse,
  SyntaxEdit,
  SyntaxNode,
  SyntaxPoint,
  SyntaxTree,
} from "./runtime.js";
export { loadGrammar, parseTree, parseWith, startParse } from "./runtime.js";
