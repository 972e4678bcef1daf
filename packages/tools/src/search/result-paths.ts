/**
 * How grep and find show result paths: relative to the working directory, as `displayPath` does.
 * A search hands back thousands of request-relative paths; resolving each one against the
 * working directory (`join` then `relative`) is most of the tool's own time on a large listing,
 * so the request directory is resolved once and a clean relative path is appended to it.
 */
import type { PathSyntax } from "@tackle/session";
import { displayPath } from "@tackle/session";

/** A segment that `join` would rewrite: empty (a leading, doubled or trailing `/`), `.` or `..`. */
const UNCLEAN = /(?:^|\/)\.{0,2}(?:\/|$)/;

/**
 * The display of each request-relative POSIX `path` found under `absolute` (a directory): the
 * same string as `displayPath(syntax, cwd, syntax.join(absolute, ...path.split("/")))`.
 */
export function resultPathDisplay(
  syntax: PathSyntax,
  cwd: string,
  absolute: string,
): (path: string) => string {
  const each = (path: string) => displayPath(syntax, cwd, syntax.join(absolute, ...path.split("/")));
  // Windows paths (separators, drive letters, case) always take the exact way.
  if (syntax.sep !== "/") return each;
  const base = displayPath(syntax, cwd, absolute);
  // Outside the working directory the display is absolute: rare, taken the exact way.
  if (syntax.isAbsolute(base)) return each;
  if (base === ".") return (path) => (UNCLEAN.test(path) ? each(path) : path);
  return (path) => (UNCLEAN.test(path) ? each(path) : `${base}/${path}`);
}
