import picomatch from "picomatch";

/** Tests a relative POSIX path against a glob. */
export type GlobMatcher = (relativePath: string) => boolean;

/**
 * Compiles a glob with the rules of ripgrep's `--glob` and of .gitignore lines:
 * - a pattern without `/` matches the file name at any depth (`*.ts` finds `src/a/b.ts`);
 * - a pattern with `/` matches the whole path relative to the search root (`src/*.ts` finds
 *   `src/a.ts` but not `src/a/b.ts`; `src/**\/*.ts` finds both); a leading `/` only anchors;
 * - `*` and `?` never cross `/`, `**` does; `{a,b}` and `[abc]` work; dot files are matched;
 * - a leading `!` inverts the pattern (every file except those).
 */
export function compileGlob(glob: string): GlobMatcher {
  let pattern = glob.trim();
  const negated = pattern.startsWith("!");
  if (negated) pattern = pattern.slice(1);
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  else if (pattern.startsWith("./")) pattern = pattern.slice(2);
  const anyDepth = !pattern.includes("/");
  const match = picomatch(pattern, { dot: true, basename: anyDepth });
  return negated ? (path) => !match(path) : (path) => match(path);
}
