import type { FilesRequest, GrepRequest } from "../types.js";
import type { GlobMatcher } from "./glob.js";
import { globSelection } from "./glob-selection.js";

/**
 * What rg is pointed at. An adapter runs rg inside the request directory and gives it `./`, so
 * output paths are request-relative after dropping `./`, and a negated glob with `/` is anchored
 * at the request path (rg matches globs relative to its working directory). A request for a
 * file runs rg in the file's directory and gives it the file's name.
 */
export type RipgrepTarget = { kind: "directory" } | { kind: "file"; name: string };

/** One rg run for a request: its arguments and what the adapter does with the output. */
export interface RipgrepPlan {
  /** Arguments after the binary. The pattern and the path always follow `--regexp` / `--`. */
  args: string[];
  /** Record separator of the output: "\n" for `--json`, "\0" for `--files --null`. */
  separator: "\n" | "\0";
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

/** rg arguments for a `GrepRequest` (`--json` output). */
export function planGrep(request: GrepRequest, target: RipgrepTarget): RipgrepPlan {
  const glob = globSelection(request.glob, target.kind);
  const args = ["--json", ...COMMON_RIPGREP_ARGS, request.ignoreCase ? "--ignore-case" : "--case-sensitive"];
  if (request.literal) args.push("--fixed-strings");
  if (request.context) args.push("--context", String(request.context));
  if (request.includeIgnored) args.push("--no-ignore");
  args.push(...glob.args);
  args.push("--glob", "!.git");
  args.push("--regexp", request.pattern, "--", targetArg(target));
  return { args, separator: "\n", keeps: glob.keeps, limit: request.maxMatches ?? Number.POSITIVE_INFINITY };
}

/** rg arguments for a `FilesRequest` (`--files --null` output). */
export function planFiles(request: FilesRequest, target: RipgrepTarget): RipgrepPlan {
  const glob = globSelection(request.glob, target.kind);
  const args = ["--files", "--null", ...COMMON_RIPGREP_ARGS];
  if (request.includeIgnored) args.push("--no-ignore");
  args.push(...glob.args);
  args.push("--glob", "!.git");
  args.push("--", targetArg(target));
  return { args, separator: "\0", keeps: glob.keeps, limit: request.limit ?? Number.POSITIVE_INFINITY };
}

function targetArg(target: RipgrepTarget): string {
  return target.kind === "directory" ? "./" : target.name;
}
