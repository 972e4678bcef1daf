/**
 * Collecting search results for one page, in one pass. Both tools want the first
 * `offset + limit + 1` results in path order (one more tells whether another page exists). An
 * engine that delivers in that order (the portable walk; any engine searching one file) is
 * stopped there. An engine that does not may deliver in any order (ripgrep walks in parallel
 * unless told to sort), and results that happen to arrive in order are no proof: a
 * smaller path may still come. So its search is read to the end, keeping only what can still be
 * among the first results by path: pages stay exact and deterministic, offsets never skip or
 * repeat a result, and memory stays bounded by the page. Results inside `.git`, which the tools
 * drop (see `isHiddenFromTools`), never count towards the page.
 */
import type { GrepEvent, GrepRequest } from "@tackle/operations";
import { comparePaths } from "./compare-paths.js";
import { type ScanCloses, scanWhile } from "./scan-closes.js";
import { isHiddenFromTools, type ToolSearch } from "./search-for.js";
import { fullFirst, sortedFirst } from "./sorted-first.js";

/**
 * Grep events of the first `wanted` matches in path then line order, with their context: the
 * lines within `request.context` after the page's last match (the match before the `wanted`-th)
 * too, which may hold further matches shown as context. `ordered`: the search delivers in path
 * order as it is; otherwise an engine that can sort runs a sorted scan first and a full one
 * only when the sorted one would be slow (see `sortedFirst`). A scan left early once the page is
 * known is closed through `closes` when given (see `ScanCloses`), else before this resolves.
 */
export async function collectGrepEvents(
  search: ToolSearch,
  request: GrepRequest,
  wanted: number,
  signal: AbortSignal | undefined,
  ordered: boolean,
  closes?: ScanCloses,
): Promise<GrepEvent[]> {
  if (ordered || !search.sorts) return collectGrepRun(search, request, wanted, signal, ordered, closes);
  return sortedFirst(
    search.engineKey,
    signal,
    wanted,
    (sortedSignal, onMatch) =>
      collectGrepRun(search, { ...request, sortByPath: true }, wanted, sortedSignal, true, closes, onMatch),
    (fullSignal, onMatch) => collectGrepRun(search, request, wanted, fullSignal, false, closes, onMatch),
  );
}

async function collectGrepRun(
  search: ToolSearch,
  request: GrepRequest,
  wanted: number,
  signal: AbortSignal | undefined,
  ordered: boolean,
  closes: ScanCloses | undefined,
  onMatch?: () => void,
): Promise<GrepEvent[]> {
  const context = Math.max(0, Math.floor(request.context ?? 0));
  const kept = new SmallestFiles(wanted, context);
  let sorted = ordered;
  let previous: GrepEvent | undefined;
  // The page's last match: context after it is part of the page.
  let pageEnd: GrepEvent | undefined;
  // At most `context` further matches fall in that context: a sorted engine may stop after them.
  const take = (event: GrepEvent): boolean => {
    if (isHiddenFromTools(event.path)) return true;
    if (event.type === "match") onMatch?.();
    // Once out of order, the order no longer matters: the whole search is read.
    if (sorted && previous && !inOrder(previous, event)) sorted = false;
    previous = event;
    // In path order, once the page and one more match are in, only the page's trailing context
    // is still needed: nothing after it can be on the page.
    if (sorted && pageEnd && kept.total >= wanted && !withinContext(pageEnd, event, context)) return false;
    kept.add(event);
    if (event.type === "match" && kept.total === wanted - 1) pageEnd = event;
    // Stop without waiting for the next event when this one ends the page's context.
    return !(sorted && pageEnd && kept.total >= wanted && endsContext(pageEnd, event, context));
  };
  await scanWhile(search.scanGrep(request, wanted + context, { signal }), take, closes, signal);
  return kept.events();
}

function withinContext(match: GrepEvent, event: GrepEvent, context: number): boolean {
  return event.path === match.path && event.lineNumber <= match.lineNumber + context;
}

function endsContext(match: GrepEvent, event: GrepEvent, context: number): boolean {
  return event.path !== match.path || event.lineNumber >= match.lineNumber + context;
}

function inOrder(a: GrepEvent, b: GrepEvent): boolean {
  const byPath = comparePaths(a.path, b.path);
  return byPath < 0 || (byPath === 0 && a.lineNumber < b.lineNumber);
}

/**
 * The events of the files that hold the first `wanted` matches by path, fed in any order of
 * files. Relies on each file's events arriving together, which ripgrep guarantees even when it
 * searches in parallel. Kept paths stay sorted (binary insertion), so a result costs a few path
 * comparisons, not a sort.
 */
class SmallestFiles {
  readonly #files = new Map<string, { events: GrepEvent[]; matches: number; lastMatch: number }>();
  /** Kept paths, sorted by `comparePaths`. */
  readonly #order: string[] = [];
  readonly #wanted: number;
  readonly #context: number;
  /** Matches kept. */
  total = 0;

  /**
   * Of one file, at most `wanted + context` matches can be needed (the page, one more, and the
   * matches within the context after the page's last one), with the context after the last of
   * them: the rest of a file with many matches is not kept.
   */
  constructor(wanted: number, context: number) {
    this.#wanted = wanted;
    this.#context = context;
  }

  add(event: GrepEvent): void {
    const wanted = this.#wanted;
    const order = this.#order;
    let file = this.#files.get(event.path);
    if (!file) {
      // Once the page is full, a file sorting after every kept one cannot be on it.
      const largest = order[order.length - 1];
      if (this.total >= wanted && largest !== undefined && comparePaths(event.path, largest) > 0) return;
      file = { events: [], matches: 0, lastMatch: 0 };
      this.#files.set(event.path, file);
      order.splice(insertionIndex(order, event.path), 0, event.path);
    }
    if (
      file.matches >= wanted + this.#context &&
      (event.type === "match" || event.lineNumber > file.lastMatch + this.#context)
    )
      return;
    file.events.push(event);
    if (event.type !== "match") return;
    file.matches++;
    file.lastMatch = event.lineNumber;
    this.total++;
    // Drop whole files from the end while the rest still fills the page.
    while (this.total > wanted && order.length > 1) {
      const last = order[order.length - 1] as string;
      const dropped = (this.#files.get(last) as { matches: number }).matches;
      if (this.total - dropped < wanted) break;
      this.#files.delete(last);
      order.pop();
      this.total -= dropped;
    }
  }

  events(): GrepEvent[] {
    return [...this.#files.values()].flatMap((file) => file.events);
  }
}

/** Where `path` goes in the sorted `order` (which does not hold it). */
function insertionIndex(order: readonly string[], path: string): number {
  let low = 0;
  let high = order.length;
  // Results mostly arrive in order: try the end first.
  if (high > 0 && comparePaths(order[high - 1] as string, path) < 0) return high;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (comparePaths(order[mid] as string, path) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The first `wanted` paths in sorted order, in one pass (see {@link collectGrepEvents}). An engine
 * that can sort runs the full scan first and a sorted one only when the full one shows the page
 * fills (see `fullFirst`). Once `wanted` paths are kept, a path is compared once, with the largest
 * kept one, and dropped when it sorts after it: over a large tree almost every path is, so a
 * whole-tree listing costs one comparison per path, not a sort. `closes` as for
 * {@link collectGrepEvents}.
 */
export async function collectFiles(
  search: ToolSearch,
  request: { path: string; glob?: string },
  wanted: number,
  signal: AbortSignal | undefined,
  ordered: boolean,
  closes?: ScanCloses,
): Promise<string[]> {
  if (ordered || !search.sorts) return collectFilesRun(search, request, wanted, signal, ordered, closes);
  return fullFirst(
    signal,
    wanted,
    (sortedSignal, onPath) =>
      collectFilesRun(search, { ...request, sortByPath: true }, wanted, sortedSignal, true, closes, onPath),
    (fullSignal, onPath) => collectFilesRun(search, request, wanted, fullSignal, false, closes, onPath),
  );
}

async function collectFilesRun(
  search: ToolSearch,
  request: { path: string; glob?: string; sortByPath?: boolean },
  wanted: number,
  signal: AbortSignal | undefined,
  ordered: boolean,
  closes: ScanCloses | undefined,
  onPath?: () => void,
): Promise<string[]> {
  let kept: string[] = [];
  let sorted = ordered;
  let last: string | undefined;
  // The largest path that can still be on the page, once `wanted` paths were kept and sorted.
  let bound: string | undefined;
  const take = (path: string): boolean => {
    if (isHiddenFromTools(path)) return true;
    onPath?.();
    if (sorted) {
      if (last !== undefined && comparePaths(last, path) >= 0) sorted = false;
      last = path;
    }
    if (bound !== undefined && comparePaths(path, bound) >= 0) return true;
    kept.push(path);
    if (sorted && kept.length >= wanted) return false;
    // Trim now and then, not on every path: sorting 2x the page is cheap, memory stays bounded.
    if (kept.length >= wanted * 2) {
      kept = kept.sort(comparePaths).slice(0, wanted);
      bound = kept[wanted - 1];
    }
    return true;
  };
  await scanWhile(search.scanFiles(request, wanted, { signal }), take, closes, signal);
  return sorted ? kept : kept.sort(comparePaths).slice(0, wanted);
}
