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
 * - after a window as long as the start-up, the time to the page is projected from the results so
 *   far; beyond {@link SORTED_BUDGET_STARTUPS} start-ups, the sorted scan is stopped;
 * - with no result at all, it is stopped after that many of the engine's earlier start-ups
 *   ({@link DEFAULT_STARTUP_MS} before any), since a search that finds nothing reads the whole tree;
 * - the full scan then runs alone; when it has found {@link FULL_EVIDENCE_PAGES} pages of results,
 *   the page is known to fill and it was the judgement that erred (a stalled start): the full scan
 *   is stopped and the sorted scan runs again, to its page.
 *
 * Every scan gives the same page (the first results by path), so the answer never depends on
 * which one answered; only the time does. A scan is stopped by aborting its signal, and the next
 * starts only once it has ended (its engine's run is over).
 */
import { linkedSignal } from "./linked-signal.js";

/** The sorted scan's budget: projected time to the page, in start-ups (see the module comment). */
export const SORTED_BUDGET_STARTUPS = 20;

/** The start-up assumed before an engine's first result was ever seen, and the smallest one used. */
export const DEFAULT_STARTUP_MS = 5;

/** Results of the full scan, in pages, that prove the page fills: the sorted scan runs again. */
export const FULL_EVIDENCE_PAGES = 4;

/** A scan of one page: reports each result it takes (`onResult`), ends when `signal` aborts. */
export type PageScan<T> = (signal: AbortSignal, onResult: () => void) => Promise<T>;

/** Start-up of each engine (smallest time to a first result seen), for scans that find nothing. */
const startups = new WeakMap<object, number>();

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
      const budget = SORTED_BUDGET_STARTUPS * Math.max(DEFAULT_STARTUP_MS, startups.get(engine) ?? 0);
      if (elapsed >= budget) stop();
      else arm(budget - elapsed);
      return;
    }
    const startup = Math.max(DEFAULT_STARTUP_MS, firstAt);
    const budget = SORTED_BUDGET_STARTUPS * startup;
    // The pace needs a window as long as the start-up to be measured.
    if (elapsed < 2 * startup) return arm(2 * startup - elapsed);
    const projected = firstAt + ((elapsed - firstAt) * wanted) / count;
    if (projected > budget) return stop();
    // With no further result, the projection reaches the budget at this time.
    arm(firstAt + ((budget - firstAt) * count) / wanted - elapsed);
  };
  check();
  return {
    onResult() {
      count++;
      if (firstAt !== undefined) return;
      firstAt = performance.now() - started;
      const known = startups.get(engine);
      if (known === undefined || firstAt < known) startups.set(engine, firstAt);
      // Re-judge with the start-up now known (the no-result budget no longer applies).
      if (timer !== undefined) clearTimeout(timer);
      check();
    },
    end() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
