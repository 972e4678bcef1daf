import type { FilesRequest, GrepRequest } from "../types.js";
import type { GlobMatcher } from "./glob.js";
import { globSelection } from "./glob-selection.js";
import {
  GREP_MAX_LINE_CHARS,
  type GrepLine,
  GrepOutputReader,
  maxColumnsFor,
  type RipgrepOutputReader,
} from "./grep-output.js";
import { RecordSplitter } from "./records.js";

/**
 * What rg is pointed at. An adapter runs rg inside the request directory and gives it `./`, so
 * output paths are request-relative after dropping `./`, and a negated glob with `/` is anchored
 * at the request path (rg matches globs relative to its working directory). A request for a
 * file runs rg in the file's directory and gives it the file's name.
 */
export type RipgrepTarget =
  | { kind: "directory"; parentIgnoreFiles?: boolean }
  | { kind: "file"; name: string };

/**
 * What, in a directory above the searched one, makes rg's lookup of parent ignore files matter:
 * its ignore files, and `.git` (a repository whose `info/exclude` applies). An adapter that has
 * checked every directory above the real path of the search directory (rg resolves it) and found
 * none of these says so with `parentIgnoreFiles: false` in the target: rg is then told not to
 * look (`--no-ignore-parent`). The result is the same (every parent rule set is empty), without
 * the cost rg pays for parent rules on every file it walks (the file's path joined to the
 * absolute base and matched against each parent level: about a fifth of a whole-tree listing's CPU).
 * The global gitignore does not depend on it.
 */
export const PARENT_IGNORE_NAMES: readonly string[] = [".gitignore", ".ignore", ".rgignore", ".git"];

/**
 * One rg run for a request: its arguments and what the adapter does with the output. `T` is
 * what the output reader yields: a {@link GrepLine} for grep, a path for files.
 */
export interface RipgrepPlan<T = unknown> {
  /** `grep` (lines of the standard printer) or `files` (`--files --null` paths). */
  kind: "grep" | "files";
  /** Arguments after the binary. The pattern and the path always follow `--regexp` / `--`. */
  args: string[];
  /** A fresh reader for one run's stdout; transports push every chunk through it. */
  reader(): RipgrepOutputReader<T>;
  /** Keeps a request-relative POSIX path (the part of a glob that rg cannot apply). */
  keeps: GlobMatcher;
  /** Most matches (grep) or paths (files) wanted; `Infinity` when unlimited. */
  limit: number;
}

/**
 * Flags of every run:
 * - `--hidden`: hidden files are searched;
 * - `--no-require-git`: .gitignore files count even outside a git work tree (a fresh scaffold, a
 *   copied checkout), as the portable walk does; a nested repository's .gitignore applies in it;
 * - `--no-config`: a user's RIPGREP_CONFIG_PATH must not change what tools see.
 * `--glob !.git` comes after every other glob: rg lets a later glob
 * override an earlier one, so the last word on `.git` is ours.
 */
export const COMMON_RIPGREP_ARGS: readonly string[] = ["--hidden", "--no-require-git", "--no-config"];

/**
 * `sortByPath`: rg walks directories in sorted order, one file after another (`--sort path`
 * makes it single-threaded), so the first files by path come first and the caller can stop
 * there: a page of a common word is answered after its first files, not after the whole tree.
 */
const SORT_BY_PATH_ARGS = ["--sort", "path"];

/**
 * Output flags of a grep run: the standard printer, one line per result with its path ended by
 * a NUL (see `GrepOutputReader`), no colours, and long lines cut to a preview by rg itself.
 */
const GREP_OUTPUT_ARGS = ["--no-heading", "--with-filename", "--line-number", "--null", "--color", "never"];

/**
 * rg arguments for a `GrepRequest`. Lines are cut to `request.maxLineLength` characters (default
 * {@link GREP_MAX_LINE_CHARS}): rg prints at most `maxColumnsFor` bytes of a line and the reader
 * keeps no more, so one huge line costs what rg's search of it costs.
 */
export function planGrep(request: GrepRequest, target: RipgrepTarget): RipgrepPlan<GrepLine> {
  const glob = globSelection(request.glob, target.kind);
  const maxChars = request.maxLineLength ?? GREP_MAX_LINE_CHARS;
  const args = [
    ...GREP_OUTPUT_ARGS,
    "--max-columns",
    String(maxColumnsFor(maxChars)),
    "--max-columns-preview",
    ...COMMON_RIPGREP_ARGS,
    request.ignoreCase ? "--ignore-case" : "--case-sensitive",
  ];
  if (request.literal) args.push("--fixed-strings");
  if (request.context) args.push("--context", String(request.context));
  if (request.includeIgnored) args.push("--no-ignore");
  else args.push(...parentArgs(target));
  if (request.sortByPath) args.push(...SORT_BY_PATH_ARGS);
  args.push(...glob.args);
  args.push("--glob", "!.git");
  args.push("--regexp", request.pattern, "--", targetArg(target));
  return {
    kind: "grep",
    args,
    reader: () => new GrepOutputReader(maxChars),
    keeps: glob.keeps,
    limit: request.maxMatches ?? Number.POSITIVE_INFINITY,
  };
}

/** rg arguments for a `FilesRequest` (`--files --null` output). */
export function planFiles(request: FilesRequest, target: RipgrepTarget): RipgrepPlan<string> {
  const glob = globSelection(request.glob, target.kind);
  const args = ["--files", "--null", ...COMMON_RIPGREP_ARGS];
  if (request.includeIgnored) args.push("--no-ignore");
  else args.push(...parentArgs(target));
  if (request.sortByPath) args.push(...SORT_BY_PATH_ARGS);
  args.push(...glob.args);
  args.push("--glob", "!.git");
  args.push("--", targetArg(target));
  return {
    kind: "files",
    args,
    reader: () => new RecordSplitter("\0"),
    keeps: glob.keeps,
    limit: request.limit ?? Number.POSITIVE_INFINITY,
  };
}

/** `--no-ignore-parent` when the adapter found no parent ignore files (see {@link PARENT_IGNORE_NAMES}). */
function parentArgs(target: RipgrepTarget): string[] {
  return target.kind === "directory" && target.parentIgnoreFiles === false ? ["--no-ignore-parent"] : [];
}

function targetArg(target: RipgrepTarget): string {
  return target.kind === "directory" ? "./" : target.name;
}
