/**
 * Collecting search results for one page, in one pass. Both tools want the first
 * `offset + limit + 1` results in path order (one more tells whether another page exists). The
 * portable walk delivers in that order, so the tools stop it there. A native engine may deliver
 * in another order (ripgrep walks in parallel unless told to sort): once a result arrives out of
 * order, the same pass goes on to the end, keeping only what can still be among the first
 * results by path, so pages stay exact, offsets never skip or repeat a result, and memory stays
 * bounded by the page. Results inside `.git`, which the tools drop (see `isInsideGit`), never
 * count towards the page.
 */
import type { GrepEvent, GrepRequest } from "@tackle/operations";
import { comparePaths } from "./compare-paths.js";
import { isInsideGit, type ToolSearch } from "./search-for.js";

/**
 * Grep events of the first `wanted` matches in path then line order, with their context: the
 * lines within `request.context` after the page's last match (the match before the `wanted`-th)
 * too, which may hold further matches shown as context.
 */
export async function collectGrepEvents(
  search: ToolSearch,
  request: GrepRequest,
  wanted: number,
  signal: AbortSignal | undefined,
): Promise<GrepEvent[]> {
  const context = Math.max(0, Math.floor(request.context ?? 0));
  const kept = new SmallestFiles(wanted);
  let sorted = true;
  let previous: GrepEvent | undefined;
  // The page's last match: context after it is part of the page.
  let pageEnd: GrepEvent | undefined;
  // At most `context` further matches fall in that context: a sorted engine may stop after them.
  for await (const event of search.scanGrep(request, wanted + context, { signal })) {
    if (isInsideGit(event.path)) continue;
    if (previous && !inOrder(previous, event)) sorted = false;
    previous = event;
    // In path order, once the page and one more match are in, only the page's trailing context
    // is still needed: nothing after it can be on the page.
    if (sorted && pageEnd && kept.total >= wanted && !withinContext(pageEnd, event, context)) break;
    kept.add(event);
    if (event.type === "match" && kept.total === wanted - 1) pageEnd = event;
    // Stop without waiting for the next event when this one ends the page's context.
    if (sorted && pageEnd && kept.total >= wanted && endsContext(pageEnd, event, context)) break;
  }
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
 * searches in parallel.
 */
class SmallestFiles {
  readonly #files = new Map<string, GrepEvent[]>();
  readonly #wanted: number;
  /** Matches kept. */
  total = 0;
  #largest: string | undefined;

  constructor(wanted: number) {
    this.#wanted = wanted;
  }

  add(event: GrepEvent): void {
    const wanted = this.#wanted;
    // Once the page is full, a file sorting after every kept one cannot be on it.
    if (this.total >= wanted && this.#largest !== undefined && comparePaths(event.path, this.#largest) > 0)
      return;
    let events = this.#files.get(event.path);
    if (!events) {
      events = [];
      this.#files.set(event.path, events);
      if (this.#largest === undefined || comparePaths(event.path, this.#largest) > 0)
        this.#largest = event.path;
    }
    events.push(event);
    if (event.type !== "match") return;
    this.total++;
    if (this.total <= wanted) return;
    // Drop whole files from the end while the rest still fills the page.
    const paths = [...this.#files.keys()].sort(comparePaths);
    while (paths.length > 1) {
      const last = paths[paths.length - 1]!;
      const dropped = this.#files.get(last)!.filter((e) => e.type === "match").length;
      if (this.total - dropped < wanted) break;
      this.#files.delete(last);
      paths.pop();
      this.total -= dropped;
    }
    this.#largest = paths[paths.length - 1];
  }

  events(): GrepEvent[] {
    return [...this.#files.values()].flat();
  }
}

/** The first `wanted` paths in sorted order, in one pass (see {@link collectGrepEvents}). */
export async function collectFiles(
  search: ToolSearch,
  request: { path: string; glob?: string },
  wanted: number,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  let kept: string[] = [];
  let sorted = true;
  let last: string | undefined;
  for await (const path of search.scanFiles(request, wanted, { signal })) {
    if (isInsideGit(path)) continue;
    if (last !== undefined && comparePaths(last, path) >= 0) sorted = false;
    last = path;
    kept.push(path);
    if (sorted && kept.length >= wanted) break;
    // Trim now and then, not on every path: sorting 2x the page is cheap, memory stays bounded.
    if (kept.length >= wanted * 2) kept = kept.sort(comparePaths).slice(0, wanted);
  }
  return sorted ? kept : kept.sort(comparePaths).slice(0, wanted);
}
