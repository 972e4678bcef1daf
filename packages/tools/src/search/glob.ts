import picomatch from "picomatch";

/** Tests a relative POSIX path against a glob. */
export type GlobMatcher = (relativePath: string) => boolean;

/**
 * Compiles a glob with the rules of ripgrep's `--glob` and of .gitignore lines:
 * - a pattern without `/` matches the file name at any depth (`*.ts` finds `src/a/b.ts`);
 * - a pattern with `/` matches the whole path relative to the search root (`src/*.ts` finds
 *   `src/a.ts` but not `src/a/b.ts`; `src/**\/*.ts` finds both); a leading `/` only anchors;
 * - `*` and `?` never cross `/`, `**` does; `{a,b}` and `[abc]` work; dot files are matched.
 * A leading `!` is not handled here (see {@link compileGlobSelector}).
 */
export function compileGlob(glob: string): GlobMatcher {
  let pattern = glob;
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  else if (pattern.startsWith("./")) pattern = pattern.slice(2);
  const anyDepth = !pattern.includes("/");
  const match = picomatch(pattern, { dot: true, basename: anyDepth });
  return (path) => match(path);
}

/** What a glob says about one entry of the walk. */
export type GlobVerdict = "include" | "exclude" | undefined;

/**
 * How a search glob selects entries, as ripgrep's `--glob` does (it is an override, checked
 * before ignore rules):
 * - `pattern`: a matching file or directory is taken even when ignore rules would skip it; any
 *   other file is left out; any other directory is left to the ignore rules (and walked);
 * - `!pattern`: a matching file or directory is left out; everything else is left to the
 *   ignore rules.
 * `undefined` means "no opinion: apply the ignore rules".
 */
export function compileGlobSelector(glob: string): (relativePath: string, isDir: boolean) => GlobVerdict {
  const trimmed = glob.trim();
  const negated = trimmed.startsWith("!");
  const matches = compileGlob(negated ? trimmed.slice(1) : trimmed);
  if (negated) return (path) => (matches(path) ? "exclude" : undefined);
  return (path, isDir) => (matches(path) ? "include" : isDir ? undefined : "exclude");
}
