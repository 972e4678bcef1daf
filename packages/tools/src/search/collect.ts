/**
 * Collecting search results for one page. Both tools ask for `offset + limit + 1` results (one
 * more tells whether another page exists) and stop the search there. That keeps the same first
 * results only when the engine delivers them in sorted path order, as the portable walk does.
 * A native engine may deliver in another order (ripgrep walks in parallel unless told to sort):
 * when such a search was cut, the tools search again to the end and keep the first results by
 * path, so pages stay exact and offsets never skip or repeat a result. The same happens when
 * the cap was reached with results inside `.git`, which the tools drop (see `isInsideGit`).
 */
import type { GrepEvent, GrepRequest, SearchOperations } from "@tackle/operations";
import { comparePaths } from "./compare-paths.js";
import { isInsideGit } from "./search-for.js";

/** Grep events of the first `wanted` matches in path then line order, with their context. */
export async function collectGrepEvents(
  search: SearchOperations,
  request: GrepRequest,
  wanted: number,
  signal: AbortSignal | undefined,
): Promise<GrepEvent[]> {
  const first: GrepEvent[] = [];
  let matches = 0;
  let delivered = 0;
  let sorted = true;
  let previous: GrepEvent | undefined;
  for await (const event of search.grep({ ...request, maxMatches: wanted }, { signal })) {
    if (event.type === "match") delivered++;
    if (!isInsideGit(event.path)) {
      if (previous && !inOrder(previous, event)) sorted = false;
      previous = event;
      first.push(event);
      if (event.type === "match") matches++;
    }
    if (delivered >= wanted) break;
  }
  // Complete when the engine ran out before the cap, or the cap holds a sorted, full page.
  if (delivered < wanted || (sorted && matches >= wanted)) return first;
  return collectSmallest(search, request, wanted, signal);
}

function inOrder(a: GrepEvent, b: GrepEvent): boolean {
  const byPath = comparePaths(a.path, b.path);
  return byPath < 0 || (byPath === 0 && a.lineNumber < b.lineNumber);
}

/**
 * The whole search, keeping only the files that hold the first `wanted` matches by path: memory
 * stays bounded by the page, whatever the tree holds. Relies on each file's events arriving
 * together, which ripgrep guarantees even when it searches in parallel.
 */
async function collectSmallest(
  search: SearchOperations,
  request: GrepRequest,
  wanted: number,
  signal: AbortSignal | undefined,
): Promise<GrepEvent[]> {
  const { maxMatches: _drop, ...unlimited } = request;
  const files = new Map<string, GrepEvent[]>();
  let total = 0;
  let largest: string | undefined;
  for await (const event of search.grep(unlimited, { signal })) {
    if (isInsideGit(event.path)) continue;
    // Once the page is full, a file sorting after every kept one cannot be on it.
    if (total >= wanted && largest !== undefined && comparePaths(event.path, largest) > 0) continue;
    let events = files.get(event.path);
    if (!events) {
      events = [];
      files.set(event.path, events);
      if (largest === undefined || comparePaths(event.path, largest) > 0) largest = event.path;
    }
    events.push(event);
    if (event.type !== "match") continue;
    total++;
    if (total <= wanted) continue;
    // Drop whole files from the end while the rest still fills the page.
    const paths = [...files.keys()].sort(comparePaths);
    while (paths.length > 1) {
      const last = paths[paths.length - 1]!;
      const dropped = files.get(last)!.filter((e) => e.type === "match").length;
      if (total - dropped < wanted) break;
      files.delete(last);
      paths.pop();
      total -= dropped;
    }
    largest = paths[paths.length - 1];
  }
  return [...files.values()].flat();
}

/** The first `wanted` paths in sorted order (see {@link collectGrepEvents} for the two passes). */
export async function collectFiles(
  search: SearchOperations,
  request: { path: string; glob?: string },
  wanted: number,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const first: string[] = [];
  let delivered = 0;
  let sorted = true;
  for await (const path of search.files({ ...request, limit: wanted }, { signal })) {
    delivered++;
    if (!isInsideGit(path)) {
      const last = first.at(-1);
      if (last !== undefined && comparePaths(last, path) >= 0) sorted = false;
      first.push(path);
    }
    if (delivered >= wanted) break;
  }
  if (delivered < wanted || (sorted && first.length >= wanted)) return first.sort(comparePaths);
  let kept: string[] = [];
  for await (const path of search.files(request, { signal })) {
    if (isInsideGit(path)) continue;
    kept.push(path);
    // Trim now and then, not on every path: sorting 2x the page is cheap, memory stays bounded.
    if (kept.length >= wanted * 2) kept = kept.sort(comparePaths).slice(0, wanted);
  }
  return kept.sort(comparePaths).slice(0, wanted);
}
