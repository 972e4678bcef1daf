import type { SyntaxTree } from "@tackle/tree-sitter";
import type { SyntaxProblem } from "./syntax-problem.js";

/**
 * The last text of each recently checked file, with its verdict and, for tree-sitter languages,
 * its tree: the next change to the file re-parses incrementally from that tree, and the check
 * of the text before a change (needed only when the text after has problems) is a lookup.
 * Process-wide (a verdict depends on the text only), bounded by files and characters. A tree
 * lives in WASM memory, about 30 bytes per character of its text (measured on TypeScript), so
 * trees have a tighter bound of their own: past it the oldest entries keep their text and
 * verdict but lose their tree (freed on the next turn of the event loop), and their next change
 * is parsed in full.
 */

/** Files whose last text is kept. */
export const MAX_CACHED_FILES = 32;
/** Characters of text kept over all files. */
export const MAX_CACHED_CHARS = 16 * 1024 * 1024;
/** Characters of text whose trees are kept (about 64 MB of WASM memory at 30 bytes a character). */
export const MAX_TREE_CHARS = 2 * 1024 * 1024;

/** A text and what the check found in it. */
export interface CheckedText {
  language: string;
  text: string;
  problems: SyntaxProblem[];
}

interface Entry extends CheckedText {
  tree?: SyntaxTree;
  /** The text this one replaced (the text before the latest change). */
  previous?: CheckedText;
}

const entries = new Map<string, Entry>();
let cachedChars = 0;
let treeChars = 0;

/** The verdict on `text` when it is the file's latest or previous text. */
export function cachedVerdict(key: string, language: string, text: string): SyntaxProblem[] | undefined {
  const entry = entries.get(key);
  if (entry?.language !== language) return undefined;
  if (entry.text === text) return entry.problems;
  if (entry.previous?.text === text) return entry.previous.problems;
  return undefined;
}

/** The tree of the file's latest text, to parse the next text incrementally from. */
export function latestTree(key: string, language: string): { text: string; tree: SyntaxTree } | undefined {
  const entry = entries.get(key);
  return entry?.language === language && entry.tree ? { text: entry.text, tree: entry.tree } : undefined;
}

/** Records `checked` as the file's latest text (the one it replaces becomes `previous`). */
export function remember(key: string, checked: CheckedText, tree?: SyntaxTree): void {
  const old = entries.get(key);
  if (old) forget(key, old);
  const entry: Entry = { ...checked, ...(tree ? { tree } : {}) };
  if (old?.language === checked.language && old.text !== checked.text) {
    entry.previous = { language: old.language, text: old.text, problems: old.problems };
  }
  entries.set(key, entry);
  cachedChars += sizeOf(entry);
  if (entry.tree) treeChars += entry.text.length;
  for (const [oldest, evicted] of entries) {
    if (entries.size <= MAX_CACHED_FILES && cachedChars <= MAX_CACHED_CHARS) break;
    if (oldest === key) continue;
    forget(oldest, evicted);
  }
  for (const [oldest, older] of entries) {
    if (treeChars <= MAX_TREE_CHARS) break;
    if (oldest !== key) dropTree(older);
  }
}

/** Drops the file's entry (after a failed incremental parse left its tree out of step with its text). */
export function forgetFile(key: string): void {
  const entry = entries.get(key);
  if (entry) forget(key, entry);
}

function forget(key: string, entry: Entry): void {
  entries.delete(key);
  cachedChars -= sizeOf(entry);
  dropTree(entry);
}

function dropTree(entry: Entry): void {
  if (!entry.tree) return;
  freeSoon(entry.tree);
  delete entry.tree;
  treeChars -= entry.text.length;
}

/**
 * Trees out of the cache, freed on the next turn of the event loop: freeing a tree walks it
 * (about 1 ms for 2,000 lines of TypeScript, 10 ms for 1 MiB), work the check that evicted it
 * need not wait for. Nothing else holds them.
 */
const dying: SyntaxTree[] = [];

function freeSoon(tree: SyntaxTree): void {
  dying.push(tree);
  if (dying.length === 1) setTimeout(freeDying, 0).unref();
}

function freeDying(): void {
  for (const tree of dying.splice(0)) tree.delete();
}

function sizeOf(entry: Entry): number {
  return entry.text.length + (entry.previous?.text.length ?? 0);
}

/** Files and characters kept now, and the characters whose trees are kept. */
export function cachedSize(): { files: number; chars: number; treeChars: number } {
  return { files: entries.size, chars: cachedChars, treeChars };
}

/** Empties the cache (tests, and a host that wants the WASM memory back). */
export function clearParseCache(): void {
  for (const [key, entry] of entries) forget(key, entry);
  freeDying();
}
