/**
 * An event-loop lag monitor for tests: a timer that should fire every `intervalMs` records how
 * late it fires. The largest delay is the longest stretch the loop was blocked (give or take one
 * interval). Tests compare it with a generous bound (seconds): it catches work that blocks the
 * loop for seconds, not a busy machine.
 */
export interface LagMonitor {
  /** Largest delay seen so far, in ms. */
  max(): number;
  /** Stops the timer and returns the largest delay, including the one still pending. */
  stop(): number;
}

/** Bound the bounds tests hold every call to: far above a loaded machine's hiccups. */
export const LAG_BOUND_MS = 3000;

export function startLagMonitor(intervalMs = 25): LagMonitor {
  let expected = performance.now() + intervalMs;
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - expected);
    expected = now + intervalMs;
  }, intervalMs);
  return {
    max: () => worst,
    stop() {
      clearInterval(timer);
      return Math.max(worst, performance.now() - expected);
    },
  };
}
