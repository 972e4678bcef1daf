/**
 * The exec defaults every adapter applies when neither its factory nor the call says otherwise.
 * One place, so a new adapter (and the docs) use the same numbers as the others.
 */
export const EXEC_DEFAULTS = {
  /** Milliseconds between SIGTERM and SIGKILL when a command is ended (timeout, abort, dispose). */
  killGraceMs: 2000,
  /**
   * After the command exited: how long to keep reading output a background child still writes,
   * measured from the last output, before its processes are ended.
   */
  idleGraceMs: 100,
} as const;

/**
 * Upper bound on that reading after exit, however chatty a background child is: the result
 * never waits longer than this for output once the command itself has exited.
 */
export const MAX_DRAIN_AFTER_EXIT_MS = 2000;

/**
 * How long an aborted internal script is given to notice its closed stdin and clean up after
 * itself (its temp file, its lock) before the abort is reported: "aborted" then means the call
 * is over.
 */
export const ABORT_SETTLE_MS = 2000;

/** Resolves when `promise` settles (either way) or after `ms`, whichever comes first; never rejects. */
export function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    promise.then(done, done);
  });
}
