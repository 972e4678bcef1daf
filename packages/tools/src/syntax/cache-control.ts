import { backgroundParseCount, dropAllBackgroundParses } from "./background-parse.js";
import {
  cachedSize,
  clearParseCache,
  MAX_CACHED_CHARS,
  MAX_CACHED_FILES,
  MAX_TREE_CHARS,
} from "./parse-cache.js";

/** What the syntax check keeps between calls, process-wide (see {@link syntaxCacheStats}). */
export interface SyntaxCacheStats {
  /** Files whose last text (and tree) is kept; at most `maxFiles`. */
  files: number;
  /** Characters of text kept; at most `maxChars`. */
  chars: number;
  /**
   * Characters of the texts whose trees are kept; at most `maxTreeChars`. A tree takes about 30
   * bytes of WASM memory per character.
   */
  treeChars: number;
  maxFiles: number;
  maxChars: number;
  maxTreeChars: number;
  /** Files read and waiting for (or in) a background parse. */
  backgroundParses: number;
}

/**
 * What the syntax check holds now: the files and characters in its parse cache (each file's
 * last text, with its tree in tree-sitter's WASM memory) and the background parses of files
 * just read. For a host that watches memory, and for tests that wait for background parses.
 */
export function syntaxCacheStats(): SyntaxCacheStats {
  return {
    ...cachedSize(),
    maxFiles: MAX_CACHED_FILES,
    maxChars: MAX_CACHED_CHARS,
    maxTreeChars: MAX_TREE_CHARS,
    backgroundParses: backgroundParseCount(),
  };
}

/**
 * Drops what the syntax check holds: background parses and every cached text and tree (their
 * WASM memory is freed). The next change to each file pays a full parse again.
 */
export function clearSyntaxCache(): void {
  dropAllBackgroundParses();
  clearParseCache();
}
