import type { Operations, SearchOperations } from "@tackle/operations";
import { createPortableSearch, type PortableSearchOperations } from "./portable-search.js";

/** The search a tool uses in `ops`: its native one when present, else the portable walk. */
export function searchFor(ops: PortableSearchOperations & Pick<Operations, "search">): {
  search: SearchOperations;
  engine: "native" | "portable";
} {
  if (ops.search) return { search: ops.search, engine: "native" };
  return { search: createPortableSearch(ops), engine: "portable" };
}

/**
 * True when a relative POSIX path runs through a `.git` entry. The tools drop such paths from
 * any search: a native search whose glob re-included `.git` (ripgrep lets a later `--glob`
 * override an earlier `!.git`) must not differ from the portable walk, which never enters it.
 */
export function isInsideGit(relativePath: string): boolean {
  return relativePath === ".git" || relativePath.startsWith(".git/") || relativePath.includes("/.git/");
}
