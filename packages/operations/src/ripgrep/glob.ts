import { createRequire } from "node:module";
import type Picomatch from "picomatch";

const require = createRequire(import.meta.url);
let picomatch: typeof Picomatch | undefined;

/**
 * picomatch, loaded on the first glob: a CommonJS package, which an `import` would load (and
 * Node's ESM loader scan for its exports) in every process that imports the search code, though
 * only globs with a `/` and the portable walk need it.
 */
function loadPicomatch(): typeof Picomatch {
  picomatch ??= require("picomatch") as typeof Picomatch;
  return picomatch;
}

/** Tests a relative POSIX path against a glob. */
export type GlobMatcher = (relativePath: string) => boolean;

/**
 * Compiles a search glob (`GrepRequest.glob`, `FilesRequest.glob`) with the rules of ripgrep's
 * globs and of .gitignore lines:
 * - a pattern without `/` matches the file name at any depth (`*.ts` finds `src/a/b.ts`);
 * - a pattern with `/` matches the whole path relative to the search root (`src/*.ts` finds
 *   `src/a.ts` but not `src/a/b.ts`; `src/**\/*.ts` finds both); a leading `/` or `./` only anchors;
 * - `*` and `?` never cross `/`, `**` does; `{a,b}` and `[abc]` work; dot files are matched.
 * A leading `!` is not handled here: callers decide what a negated glob means.
 *
 * This is the one matcher both the native searches (for globs ripgrep cannot apply without
 * overriding ignore rules, see `globSelection`) and the tools' portable walk use, so their
 * results stay equal.
 */
export function compileGlob(glob: string): GlobMatcher {
  let pattern = glob;
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  else if (pattern.startsWith("./")) pattern = pattern.slice(2);
  const anyDepth = !pattern.includes("/");
  const match = loadPicomatch()(pattern, { dot: true, basename: anyDepth });
  return (path) => match(path);
}
