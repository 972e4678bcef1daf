import { createRequire } from "node:module";
import type IgnoreFactory from "ignore";
import type { Ignore } from "ignore";

const require = createRequire(import.meta.url);
let ignore: typeof IgnoreFactory | undefined;

/** Ignore files a directory may hold, in ripgrep's order of precedence (first wins). */
export const IGNORE_FILE_NAMES = [".rgignore", ".ignore", ".gitignore"] as const;

/** The rules one directory contributes. */
export interface IgnoreFrame {
  /** True when the directory holds a `.git` entry (directory, or file for worktrees/submodules). */
  hasGit: boolean;
  /** `.rgignore` rules: honoured everywhere. */
  rgignore?: Ignore;
  /** `.ignore` rules: honoured everywhere. */
  dotignore?: Ignore;
  /** `.gitignore` rules: honoured inside a git repository only. */
  gitignore?: Ignore;
  /** `.git/info/exclude` rules of a repository root. */
  gitExclude?: Ignore;
  /**
   * Turns a path relative to the search root into one relative to this directory: strip
   * `strip` characters, then prepend `prefix`.
   */
  strip: number;
  prefix: string;
}

/** Parses ignore file text. Case-sensitive, as git and ripgrep are by default. */
export function parseIgnoreFile(text: string): Ignore | undefined {
  if (text.trim() === "") return undefined;
  // Loaded on first use: a CommonJS package only the portable walk needs (an `import` would load
  // it, and have Node's ESM loader scan it, in every process that imports the tools).
  ignore ??= require("ignore") as typeof IgnoreFactory;
  return ignore({ ignorecase: false }).add(text);
}

type Kind = "rgignore" | "dotignore" | "gitignore" | "gitExclude";
const KINDS_IN_PRECEDENCE: readonly Kind[] = ["rgignore", "dotignore", "gitignore", "gitExclude"];

/**
 * Decides whether an entry is ignored, the way ripgrep's walk does:
 * - per kind of ignore file, the nearest directory whose rules match (ignore or `!` re-include)
 *   decides; `.rgignore` beats `.ignore` beats `.gitignore` beats `.git/info/exclude`;
 * - with `requireGit` (ripgrep's default), `.gitignore` and `.git/info/exclude` count only inside
 *   a git repository (some directory on the way up holds `.git`), and only up to the nearest
 *   repository root: a nested repository starts its own scope and does not inherit the rules of
 *   the repository around it;
 * - without it (`rg --no-require-git`, what the local native search runs), every `.gitignore` on
 *   the way up counts, inside a nested repository too.
 *
 * `frames` runs from the outermost ancestor to the entry's own directory. `requireGit` defaults
 * to false, the mode the local native search runs in.
 */
export function isIgnored(
  frames: readonly IgnoreFrame[],
  relFromRoot: string,
  isDir: boolean,
  requireGit = false,
): boolean {
  let anyGit = !requireGit;
  for (const frame of anyGit ? [] : frames) {
    if (frame.hasGit) {
      anyGit = true;
      break;
    }
  }
  const decided: Partial<Record<Kind, boolean>> = {};
  let sawGit = false;
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i]!;
    const gitActive = anyGit && !sawGit;
    if (frame.rgignore || frame.dotignore || (gitActive && (frame.gitignore || frame.gitExclude))) {
      const rel = frame.prefix + relFromRoot.slice(frame.strip) + (isDir ? "/" : "");
      decide(decided, "rgignore", frame.rgignore, rel);
      decide(decided, "dotignore", frame.dotignore, rel);
      if (gitActive) {
        decide(decided, "gitignore", frame.gitignore, rel);
        decide(decided, "gitExclude", frame.gitExclude, rel);
      }
    }
    if (requireGit) sawGit ||= frame.hasGit;
  }
  for (const kind of KINDS_IN_PRECEDENCE) {
    const verdict = decided[kind];
    if (verdict !== undefined) return verdict;
  }
  return false;
}

function decide(decided: Partial<Record<Kind, boolean>>, kind: Kind, rules: Ignore | undefined, rel: string) {
  if (rules === undefined || decided[kind] !== undefined) return;
  const result = rules.test(rel);
  if (result.ignored) decided[kind] = true;
  else if (result.unignored) decided[kind] = false;
}
