/**
 * `@tackle/tools/search`: the portable search (a `readdir` walk with the same ignore rules and
 * order as ripgrep) for adapters without a native `search`, and the path order results use.
 */
export { comparePaths } from "./compare-paths.js";
export type { PortableSearchOperations, PortableSearchOptions } from "./portable-search.js";
export { createPortableSearch } from "./portable-search.js";
