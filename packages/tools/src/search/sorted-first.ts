/**
 * One scan at a time for a page: a sorted scan first, the full (parallel) scan only when the
 * sorted one will not fill the page soon. An engine that sorts (ripgrep's `--sort path`) answers
 * a page after the first files by path, but walks single-threaded: when few files match, the page
 * needs the whole tree and the sorted walk is slower than the parallel one. Running both at once
 * made every whole-tree search share the CPU with a scan whose answer it did not need, so they run
 * one after the other, and the sorted scan is judged by its own pace:
 *
 * - the unit is the sorted scan's start-up, the time to its first result (a loaded machine slows
 *   the start-up and the results after it alike, so the judgement does not depend on the load);
 * - from half a start-up after the first result on, the time to the page is projected from the
 *   pace of the results so far; beyond {@link SORTED_BUDGET_STARTUPS} start-ups, the sorted scan
 *   is stopped;
 * - with no result at all, it is stopped after {@link NO_RESULT_STARTUPS} start-ups of its engine
 *   (the shortest of its last {@link STARTUPS_REMEMBERED}; {@link DEFAULT_STARTUP_MS} before any):
 *   a page of a common word starts with its first files, and a search that finds nothing early
 *   reads much of the tree;
 * - the full scan then runs alone; when it has found {@link FULL_EVIDENCE_PAGES} pages of results,
 *   the page is known to fill and it was the judgement that erred (a stalled start): the full scan
 *   is stopped and the sorted scan runs again, to its page.
 *
 * A listing of names (`find`) skips the first step and starts with the full scan (see
 * {@link fullFirst}).
 *
 * Every scan gives the same page (the first results by path), so the answer never depends on
 * which one answered; only the time does. A scan is stopped by aborting its signal, and the next
 * starts only once it has ended (its engine's run is over).
 */
import { linkedSignal } from "./linked-signal.js";

/** The sorted scan's budget: projected time to the page, in start-ups (see the module comment). */
export const SORTED_BUDGET_STARTUPS = 20;

/** A sorted scan with no result after this many of its engine's start-ups is stopped. */
export const NO_RESULT_STARTUPS = 3;

/** The start-up assumed before an engine's first result was ever seen. */
export const DEFAULT_STARTUP_MS = 20;

/** The smallest start-up used (a clock's resolution, a result already buffered). */
export const MIN_STARTUP_MS = 5;

/** Results of the full scan, in pages, that prove the page fills: the sorted scan runs again. */
export const FULL_EVIDENCE_PAGES = 4;

/** A scan of one page: reports each result it takes (`onResult`), ends when `signal` aborts. */
export type PageScan<T> = (signal: AbortSignal, onResult: () => void) => Promise<T>;

/** Start-ups remembered per engine: the shortest of the last ones is the no-result unit. */
export const STARTUPS_REMEMBERED = 8;

/** Each engine's last start-ups (times to a first result), for scans that find nothing. */
const startups = new WeakMap<object, number[]>();

function knownStartup(engine: object): number {
  const seen = startups.get(engine);
  return seen && seen.length > 0 ? Math.min(...seen) : DEFAULT_STARTUP_MS;
}

function rememberStartup(engine: object, ms: number): void {
  const seen = startups.get(engine) ?? [];
  seen.push(ms);
  if (seen.length > STARTUPS_REMEMBERED) seen.shift();
  startups.set(engine, seen);
}

/**
 * The page from `sorted`, or from `full` when `sorted` would be slow (see the module comment).
 * `engine` identifies the search whose start-up is remembered; `wanted` is the page size in
 * results (offset + limit + 1).
 */
export async function sortedFirst<T>(
  engine: object,
  outer: AbortSignal | undefined,
  wanted: number,
  sorted: PageScan<T>,
  full: PageScan<T>,
): Promise<T> {
  const first = await runUntil(outer, sorted, (stop) => sortedJudge(engine, wanted, stop));
  if (first.done) return first.value;
  return fullFirst(outer, wanted, sorted, full);
}

/**
 * The page from `full`, unless it finds {@link FULL_EVIDENCE_PAGES} pages of results: then the
 * page is known to fill, `full` is stopped and `sorted` runs to its page. The second half of
 * {@link sortedFirst}, and the whole order for a listing of names (`find`): the full scan lists
 * names without reading files, so running it first costs at most a few pages of listing when the
 * page is dense, while a sparse listing (`*.md` in a tree of code: a page never fills, the whole
 * tree is walked whatever runs) pays no sorted scan that could only be judged too slow after a
 * few start-ups. `wanted` is the page size in results (offset + limit + 1).
 */
export async function fullFirst<T>(
  outer: AbortSignal | undefined,
  wanted: number,
  sorted: PageScan<T>,
  full: PageScan<T>,
): Promise<T> {
  const evidence = wanted * FULL_EVIDENCE_PAGES;
  const second = await runUntil(outer, full, (stop) => {
    let count = 0;
    return {
      onResult: () => {
        if (++count === evidence) stop();
      },
      end: () => {},
    };
  });
  if (second.done) return second.value;
  const last = linkedSignal(outer);
  try {
    return await sorted(last.signal, () => {});
  } finally {
    last.abort();
  }
}

interface Judge {
  onResult(): void;
  end(): void;
}

/**
 * Runs `scan` until it settles or `judge` calls `stop`. Resolves `{ done: true, value }` when the
 * scan answered before any stop, `{ done: false }` once a stopped scan has ended; an outer abort
 * or a failure of the scan rejects.
 */
async function runUntil<T>(
  outer: AbortSignal | undefined,
  scan: PageScan<T>,
  makeJudge: (stop: () => void) => Judge,
): Promise<{ done: true; value: T } | { done: false }> {
  const link = linkedSignal(outer);
  let stopped = false;
  const judge = makeJudge(() => {
    if (stopped) return;
    stopped = true;
    link.abort();
  });
  try {
    const value = await scan(link.signal, judge.onResult);
    // A scan that ended after being stopped may have ended short: its answer is not used.
    return stopped ? { done: false } : { done: true, value };
  } catch (error) {
    if (stopped && !outer?.aborted) return { done: false };
    throw error;
  } finally {
    judge.end();
    link.abort();
  }
}

/** Judges the sorted scan by its pace (see the module comment). */
function sortedJudge(engine: object, wanted: number, stop: () => void): Judge {
  const started = performance.now();
  let firstAt: number | undefined;
  let count = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(check, Math.max(1, Math.ceil(ms)));
  };
  const check = () => {
    timer = undefined;
    const elapsed = performance.now() - started;
    if (firstAt === undefined) {
      const budget = NO_RESULT_STARTUPS * Math.max(MIN_STARTUP_MS, knownStartup(engine));
      if (elapsed >= budget) stop();
      else arm(budget - elapsed);
      return;
    }
    const startup = Math.max(MIN_STARTUP_MS, firstAt);
    // The pace needs a window after the first result (half a start-up) to be measured.
    const windowEnd = firstAt + startup / 2;
    if (elapsed < windowEnd) return arm(windowEnd - elapsed);
    const budget = SORTED_BUDGET_STARTUPS * startup;
    // Results still missing, at the pace so far counted as if the next one were arriving now
    // (a scan preempted right after a burst is not judged by the pause alone).
    const perResult = (elapsed - firstAt) / count;
    const remaining = Math.max(1, wanted - count);
    if (elapsed + remaining * perResult > budget) return stop();
    // With no further result, the projection reaches the budget at this time.
    const k = remaining / count;
    arm((budget + firstAt * k) / (1 + k) - elapsed);
  };
  check();
  return {
    onResult() {
      count++;
      if (firstAt !== undefined) return;
      firstAt = performance.now() - started;
      rememberStartup(engine, firstAt);
      // Judged from now on by its own start-up, not the engine's.
      if (timer !== undefined) clearTimeout(timer);
      check();
    },
    end() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
