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
