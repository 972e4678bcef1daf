import { compileGlob } from "@tackle/operations/ripgrep";

// The matcher lives in @tackle/operations/ripgrep so the native searches filter with the same rules.
export { compileGlob, type GlobMatcher } from "@tackle/operations/ripgrep";

/**
 * Whether a search glob leaves an entry of the walk out. A glob only narrows a search; the
 * ignore rules apply to whatever it keeps (the contract of `GrepRequest.glob`, which the native
 * searches keep too, see `globSelection` in @tackle/operations):
 * - `pattern`: a file that does not match is left out; directories are always walked (the
 *   files inside may match), unless the ignore rules skip them;
 * - `!pattern`: a matching file or directory is left out (with everything below it).
 */
export function compileGlobExclusion(glob: string): (relativePath: string, isDir: boolean) => boolean {
  const trimmed = glob.trim();
  const negated = trimmed.startsWith("!");
  const matches = compileGlob(negated ? trimmed.slice(1) : trimmed);
  if (negated) return (path) => matches(path);
  return (path, isDir) => !isDir && !matches(path);
}
