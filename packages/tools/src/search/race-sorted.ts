/**
 * A sorted scan against a full one. An engine that sorts (ripgrep's `--sort path`) answers a page
 * after the first files by path, but walks single-threaded: when few files match, the page needs
 * the whole tree and the sorted walk is slower than the parallel one. Neither case can be told in
 * advance, so the sorted scan starts alone and, when it has not answered within
 * {@link SORTED_HEAD_START_MS}, the full (parallel) scan starts beside it. Whichever ends first
 * answers; the other is stopped, which ends its engine's run. Both give the same page (the first
 * results by path), so the answer never depends on which one won.
 */
import { linkedSignal } from "./linked-signal.js";

/**
 * How long the sorted scan runs alone: a page of a common word is answered within it (a few
 * milliseconds on an idle machine); a search that needs the whole tree pays it once on top of
 * the parallel scan.
 */
export const SORTED_HEAD_START_MS = 100;

/**
 * Runs `sorted` now and `full` after `headStartMs` unless `sorted` settled by then; resolves or
 * rejects as the first of them settles and aborts the other (its own rejection, an abort, is
 * dropped). `outer` aborts both.
 */
export async function raceSortedScan<T>(
  outer: AbortSignal | undefined,
  sorted: (signal: AbortSignal) => Promise<T>,
  full: (signal: AbortSignal) => Promise<T>,
  headStartMs: number = SORTED_HEAD_START_MS,
): Promise<T> {
  const sortedLink = linkedSignal(outer);
  const fullLink = linkedSignal(outer);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const first = sorted(sortedLink.signal);
  const second = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => full(fullLink.signal).then(resolve, reject), headStartMs);
  });
  // The loser's rejection (the abort below) is nobody's answer.
  first.catch(() => {});
  second.catch(() => {});
  try {
    return await Promise.race([first, second]);
  } finally {
    clearTimeout(timer);
    sortedLink.abort();
    fullLink.abort();
  }
}
