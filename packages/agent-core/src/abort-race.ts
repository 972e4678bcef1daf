/** How long the loop keeps waiting for a tool (or `afterToolCall`) after the run was aborted. */
export const ABORT_GRACE_MS = 5000;

/** Largest delay setTimeout honours; longer means "wait for the work however long it takes". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What {@link waitUnlessAborted} resolves to: the work's value, or that the wait was given up. */
export type AbortRaced<T> = { settled: true; value: T } | { settled: false };

/**
 * Waits for `work`, but gives up `graceMs` after `signal` fires (at once for 0; never for
 * `Infinity`). Rejects only when `work` rejects before the wait is given up.
 *
 * Why a grace and not an immediate race: a tool that honours the signal reports what it did
 * (partial output, which kill step was confirmed) a moment after the abort, and that result is
 * worth more to the model than a generic "aborted". Why a limit at all: a tool that ignores the
 * signal would otherwise hold the whole run, and `Agent.waitForIdle`, forever.
 *
 * `work` keeps running after the wait is given up; a late rejection is handled here (it was
 * subscribed to), so it cannot become an unhandled rejection that kills the host.
 */
export function waitUnlessAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  graceMs: number,
): Promise<AbortRaced<T>> {
  if (signal === undefined) return work.then((value) => ({ settled: true, value }));
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const giveUp = () => resolve({ settled: false });
    const onAbort = () => {
      if (!(graceMs > 0)) giveUp();
      else if (graceMs <= MAX_TIMER_MS) timer = setTimeout(giveUp, graceMs);
    };
    const cleanUp = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    work.then(
      (value) => {
        cleanUp();
        resolve({ settled: true, value });
      },
      (error: unknown) => {
        cleanUp();
        reject(error);
      },
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Calls `run` and turns a synchronous throw into a rejected promise (hooks and tools may be plain functions). */
export function promiseOf<T>(run: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve) => resolve(run()));
}
