/**
 * `@tackle/operations/ripgrep`: the ripgrep driver the adapters share (argument plans, output
 * readers that hold a bounded part of any line, exit codes, the rg-compatible glob matcher), so
 * every adapter that runs `rg` answers a search the same way. Adapter building blocks, not part of the Operations contract.
 */
export type { RipgrepPlan, RipgrepTarget } from "./args.js";
export { COMMON_RIPGREP_ARGS, PARENT_IGNORE_NAMES, planFiles, planGrep } from "./args.js";
export type { RipgrepExit } from "./errors.js";
export { RIPGREP_STDERR_LIMIT, ripgrepExitError } from "./errors.js";
export type { GlobMatcher } from "./glob.js";
export { compileGlob } from "./glob.js";
export type { GlobSelection } from "./glob-selection.js";
export { GLOB_TYPE_NAME, globSelection } from "./glob-selection.js";
export type { GrepLine, RipgrepOutputReader } from "./grep-output.js";
export { GREP_MAX_LINE_CHARS, GrepOutputReader, maxColumnsFor } from "./grep-output.js";
export type { RipgrepPlatform } from "./paths.js";
export { ripgrepRelativePath } from "./paths.js";
export { RecordSplitter } from "./records.js";
export type { RipgrepBatches } from "./results.js";
export { filePathsOf, grepEventsOf } from "./results.js";
