/**
 * "Did you mean" for a missing file: names in the nearest existing directory that look like
 * what the model asked for (same name in another case, another extension, a typo or two).
 */
import { isOperationError, type Operations } from "@tackle/operations";
import type { PathSyntax } from "./real-path.js";
import { displayPath, pathSyntax } from "./workspace-policy.js";

/** How many suggestions a not-found message offers at most. */
export const MAX_SUGGESTIONS = 3;

/** How many missing directory levels above the file are looked at ("srcc/app.ts" for "src/app.ts"). */
const MAX_MISSING_LEVELS = 1;

/**
 * Up to {@link MAX_SUGGESTIONS} existing paths close to `absolute`, closest first, as absolute
 * paths. Looks in the parent directory (one `readdir`); when the parent itself is missing, in
 * the directories close to it (one level, a few more `readdir`s), so it stays cheap remotely.
 */
export async function findNearMisses(
  ops: Pick<Operations, "readdir">,
  syntax: PathSyntax,
  absolute: string,
  signal?: AbortSignal,
  missingLevels = 0,
): Promise<string[]> {
  const parent = syntax.dirname(absolute);
  const wanted = syntax.basename(absolute);
  let names: string[];
  try {
    names = (await ops.readdir(parent, { signal })).map((entry) => entry.name);
  } catch (error) {
    if (isOperationError(error, "not_found") && missingLevels < MAX_MISSING_LEVELS && parent !== absolute) {
      const found: string[] = [];
      for (const dir of await findNearMisses(ops, syntax, parent, signal, missingLevels + 1)) {
        found.push(
          ...(await findNearMisses(ops, syntax, syntax.join(dir, wanted), signal, MAX_MISSING_LEVELS)),
        );
      }
      return found.slice(0, MAX_SUGGESTIONS);
    }
    if (isOperationError(error, "not_found", "not_directory", "permission_denied")) return [];
    throw error;
  }
  return names
    .map((name) => ({ name, score: similarity(wanted, name) }))
    .filter((candidate) => candidate.score !== null)
    .sort((a, b) => (a.score as number) - (b.score as number) || a.name.localeCompare(b.name))
    .slice(0, MAX_SUGGESTIONS)
    .map((candidate) => syntax.join(parent, candidate.name));
}

/** Lower is closer; `null` when `candidate` is not worth suggesting. */
function similarity(wanted: string, candidate: string): number | null {
  const a = wanted.toLowerCase();
  const b = candidate.toLowerCase();
  if (a === b) return 0;
  if (stem(a) === stem(b)) return 1;
  const distance = editDistance(a, b);
  const allowed = Math.max(1, Math.floor(Math.max(a.length, b.length) / 4));
  if (distance <= allowed) return 1 + distance;
  if (b.startsWith(a) || a.startsWith(b)) return 2 + Math.abs(a.length - b.length);
  return null;
}

function stem(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Edit distance counting a swap of two neighbouring characters as one edit (a common typo). */
function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, beforePrevious[j - 2]! + 1);
      }
      current[j] = best;
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Near misses of a missing file as the model should see them (relative to `ctx.cwd` when
 * inside it), never the missing path itself. Never throws: a failed lookup just means no
 * suggestions.
 */
export async function suggestSimilarPaths(
  ctx: { cwd: string; operations: Pick<Operations, "platform" | "readdir"> },
  absolute: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const syntax = pathSyntax(ctx.operations.platform);
  const found = await findNearMisses(ctx.operations, syntax, absolute, signal).catch(() => []);
  // The path itself is listed when it is a dangling link: suggesting it back makes a model loop.
  return found.filter((path) => path !== absolute).map((path) => displayPath(syntax, ctx.cwd, path));
}

/** What a not-found message adds about a missing path (see {@link explainMissingPath}). */
export interface MissingPathHint {
  /** A sentence (with a leading space) for the message, or "" when there is nothing to add. */
  text: string;
  /** Suggested paths, as displayed. */
  suggestions: string[];
  /** Set when the path is a link whose target does not exist: the target as stored. */
  danglingTarget?: string;
}

/**
 * Explains a missing path: a dangling link names its missing target; anything else gets its
 * near misses ("Did you mean ..."). Never throws.
 */
export async function explainMissingPath(
  ctx: {
    cwd: string;
    operations: Pick<Operations, "platform" | "readdir" | "lstat"> & Partial<Pick<Operations, "readlink">>;
  },
  absolute: string,
  signal?: AbortSignal,
): Promise<MissingPathHint> {
  const target = await danglingTargetOf(ctx.operations, absolute, signal);
  if (target !== undefined) {
    return {
      text: ` It is a symbolic link to ${target}, which does not exist.`,
      suggestions: [],
      danglingTarget: target,
    };
  }
  const suggestions = await suggestSimilarPaths(ctx, absolute, signal);
  return { text: suggestions.length > 0 ? ` Did you mean ${suggestions.join(", ")}?` : "", suggestions };
}

async function danglingTargetOf(
  ops: Pick<Operations, "lstat"> & Partial<Pick<Operations, "readlink">>,
  absolute: string,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  try {
    if ((await ops.lstat(absolute, { signal })).type !== "symlink" || !ops.readlink) return undefined;
    return await ops.readlink(absolute, { signal });
  } catch {
    return undefined;
  }
}
