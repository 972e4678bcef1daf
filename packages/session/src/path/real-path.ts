/**
 * Real paths through `Operations`, for files that may not exist yet: the real path of the
 * nearest existing ancestor plus the missing rest. Used by the path policy and as the key of
 * the file mutation queue, so both agree on what "the same file" is.
 */
import { isOperationError, OperationError, type Operations } from "@tackle/operations";

/** The `Operations` methods real-path resolution uses (`readlink` optional). */
export type RealPathOperations = Pick<Operations, "platform" | "realpath" | "lstat"> &
  Partial<Pick<Operations, "readlink">>;

/** What {@link resolveRealPath} found. */
export interface RealPathResult {
  /** Real path: every existing part resolved. */
  real: string;
  /** The path itself exists (a dangling link does not). */
  exists: boolean;
  /** The path itself is a link whose target does not exist; `real` is where it leads. */
  dangling?: boolean;
  /**
   * Set when following links went round in a circle (or more than {@link MAX_LINK_HOPS} deep):
   * the links in the order they were followed, the first one repeated at the end of a circle.
   */
  loop?: string[];
}

/** How many dangling links in a row are followed before giving up (a loop). */
export const MAX_LINK_HOPS = 16;

/** `path.posix` or `path.win32` functions for the environment, without importing node:path twice. */
export interface PathSyntax {
  sep: string;
  resolve(...parts: string[]): string;
  dirname(path: string): string;
  basename(path: string): string;
  join(...parts: string[]): string;
  relative(from: string, to: string): string;
  isAbsolute(path: string): boolean;
}

/**
 * Resolves `absolute` to its real path. A missing path resolves through its nearest existing
 * ancestor; a dangling link at the end is followed to where a write would land (its target),
 * so a link pointing outside the workspace cannot smuggle a new file out. `followed` (the links
 * followed so far) is how a circle of links is recognised; callers leave it out.
 */
export async function resolveRealPath(
  ops: RealPathOperations,
  syntax: PathSyntax,
  absolute: string,
  signal?: AbortSignal,
  followed: readonly string[] = [],
): Promise<RealPathResult> {
  try {
    return { real: await ops.realpath(absolute, { signal }), exists: true };
  } catch (error) {
    if (!isOperationError(error, "not_found", "not_directory")) throw error;
  }
  const link = await danglingLinkTarget(ops, syntax, absolute, signal);
  if (link !== null) {
    const chain = [...followed, absolute];
    if (followed.includes(absolute) || chain.length > MAX_LINK_HOPS) {
      return { real: absolute, exists: false, dangling: true, loop: chain };
    }
    const target = await resolveRealPath(ops, syntax, link, signal, chain);
    return { ...target, exists: false, dangling: true };
  }
  const parent = syntax.dirname(absolute);
  if (parent === absolute) return { real: absolute, exists: false };
  const parentReal = await resolveRealPath(ops, syntax, parent, signal, followed);
  const real = syntax.join(parentReal.real, syntax.basename(absolute));
  return parentReal.loop ? { real, exists: false, loop: parentReal.loop } : { real, exists: false };
}

async function danglingLinkTarget(
  ops: RealPathOperations,
  syntax: PathSyntax,
  absolute: string,
  signal: AbortSignal | undefined,
): Promise<string | null> {
  try {
    const stat = await ops.lstat(absolute, { signal });
    if (stat.type !== "symlink") return null;
    if (!ops.readlink) {
      // Without readlink the target is unknown; treating the link as absent would let a write follow it anywhere.
      throw new OperationError("not_supported", `Cannot resolve the dangling link ${absolute}`, {
        path: absolute,
      });
    }
    const target = await ops.readlink(absolute, { signal });
    return syntax.resolve(syntax.dirname(absolute), target);
  } catch (error) {
    if (isOperationError(error, "not_found", "not_directory", "invalid_argument")) return null;
    throw error;
  }
}
