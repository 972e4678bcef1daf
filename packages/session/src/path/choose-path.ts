/**
 * Picks which of a model's path spellings (see `pathSpellings`) is meant, by what exists: the
 * first spelling that exists exactly; else the first that matches existing names up to look-alike
 * characters (`looseNameKey`); else the spelling a new file is created as. The exact name always
 * wins, so a file really named `a\u202Fb.png` or `@scope/x` is reached by its name.
 */
import { isOperationError, type Operations } from "@tackle/operations";
import { looseNameKey, type PathSpellings } from "./normalize.js";
import {
  type PathSyntax,
  type RealPathOperations,
  type RealPathResult,
  resolveRealPath,
} from "./real-path.js";

/** The `Operations` methods {@link choosePath} uses; without `readdir` there is no look-alike matching. */
export type ChoosePathOperations = RealPathOperations & Partial<Pick<Operations, "readdir">>;

/** The chosen path and its real path. */
export interface ChosenPath extends RealPathResult {
  /** Absolute path in the environment's syntax. */
  absolute: string;
}

/** Chooses among `spellings`, each resolved against `cwd` (see the module comment). */
export async function choosePath(
  ops: ChoosePathOperations,
  syntax: PathSyntax,
  cwd: string,
  spellings: PathSpellings,
  signal?: AbortSignal,
): Promise<ChosenPath> {
  const tried = spellings.tried.map((path) => syntax.resolve(cwd, path));
  const fallback = syntax.resolve(cwd, spellings.fallback);
  let fallbackResult: RealPathResult | undefined;
  for (const absolute of tried) {
    const result = await resolveRealPath(ops, syntax, absolute, signal);
    // A dangling link is there too: a write through it lands at its target.
    if (result.exists || result.dangling) return { absolute, ...result };
    if (absolute === fallback) fallbackResult = result;
  }
  if (ops.readdir) {
    for (const absolute of tried) {
      const match = await matchLooseNames(ops as LooseOperations, syntax, absolute, signal);
      if (match !== undefined)
        return { absolute: match, ...(await resolveRealPath(ops, syntax, match, signal)) };
    }
  }
  if (spellings.literalScope !== undefined) {
    // `@scope/pkg/new.js` inside an existing `@scope` directory keeps its `@`.
    const literal = tried[0] as string;
    if (await isPresent(ops, syntax.resolve(cwd, spellings.literalScope), signal)) {
      return { absolute: literal, ...(await resolveRealPath(ops, syntax, literal, signal)) };
    }
  }
  return {
    absolute: fallback,
    ...(fallbackResult ?? (await resolveRealPath(ops, syntax, fallback, signal))),
  };
}

type LooseOperations = RealPathOperations & Pick<Operations, "readdir">;

/** True when something (a file, a directory, a link, even a dangling one) is at `path`. */
async function isPresent(
  ops: Pick<Operations, "lstat">,
  path: string,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  try {
    await ops.lstat(path, { signal });
    return true;
  } catch (error) {
    if (isOperationError(error, "not_found", "not_directory")) return false;
    throw error;
  }
}

/**
 * The existing path whose missing parts match `absolute`'s up to look-alike characters, when
 * exactly one name matches at every level; undefined otherwise. Costs one `lstat` per missing
 * level found on the way up and one `readdir` per level on the way down, and runs only for paths
 * that do not exist as written.
 */
async function matchLooseNames(
  ops: LooseOperations,
  syntax: PathSyntax,
  absolute: string,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const missing: string[] = [];
  let dir = absolute;
  for (;;) {
    const parent = syntax.dirname(dir);
    if (parent === dir) return undefined;
    missing.unshift(syntax.basename(dir));
    dir = parent;
    if (await isPresent(ops, dir, signal)) break;
  }
  let changed = false;
  for (const name of missing) {
    let names: string[];
    try {
      names = (await ops.readdir(dir, { signal })).map((entry) => entry.name);
    } catch (error) {
      if (isOperationError(error, "not_found", "not_directory", "permission_denied")) return undefined;
      throw error;
    }
    let found = names.includes(name) ? name : undefined;
    if (found === undefined) {
      const key = looseNameKey(name);
      const alike = names.filter((candidate) => looseNameKey(candidate) === key);
      // Two look-alikes (an NFC and an NFD copy, say): guessing could pick the wrong file.
      if (alike.length !== 1) return undefined;
      found = alike[0] as string;
      changed = true;
    }
    dir = syntax.join(dir, found);
  }
  return changed ? dir : undefined;
}
