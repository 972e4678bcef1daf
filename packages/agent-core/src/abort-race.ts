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
    let unsubscribe: (() => void) | undefined;
    const giveUp = () => resolve({ settled: false });
    const aborted = () => {
      if (!(graceMs > 0)) giveUp();
      else if (graceMs <= MAX_TIMER_MS) timer = setTimeout(giveUp, graceMs);
    };
    const cleanUp = () => {
      clearTimeout(timer);
      unsubscribe?.();
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
    if (signal.aborted) aborted();
    else unsubscribe = onAbort(signal, aborted);
  });
}

/** What {@link AbortDeadline.race} resolves to when the deadline came first. */
export const GAVE_UP: unique symbol = Symbol("gave up");

/**
 * One grace deadline shared by many waits on the same signal: each {@link AbortDeadline.race}
 * gives up `graceMs` after `signal` fires (at once for 0; never for `Infinity`), through one
 * subscription and at most one timer for all of them.
 *
 * For waits that all start before the abort (the calls of one batch), this gives up each of them
 * exactly when {@link waitUnlessAborted} would, without a subscription and four closures per
 * wait: at 1000 calls per message those were a large part of what a call cost. A wait that
 * starts after the abort would get less than its own grace here: use `waitUnlessAborted` for
 * those.
 *
 * Live only as long as its waits (one batch), then `release` it: every race holds a slot until
 * then.
 */
export class AbortDeadline {
  #passed = false;
  /** The answers of the waits still open; an answered wait leaves `undefined`. */
  #waiting: (((value: typeof GAVE_UP) => void) | undefined)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(signal: AbortSignal, graceMs: number) {
    const giveUp = () => {
      this.#passed = true;
      const waiting = this.#waiting;
      this.#waiting = [];
      for (let slot = 0; slot < waiting.length; slot++) {
        const answer = waiting[slot];
        if (answer === undefined) continue;
        waiting[slot] = undefined;
        answer(GAVE_UP);
      }
    };
    const aborted = () => {
      this.#unsubscribe = undefined;
      if (!(graceMs > 0)) giveUp();
      else if (graceMs <= MAX_TIMER_MS) this.#timer = setTimeout(giveUp, graceMs);
    };
    if (signal.aborted) aborted();
    else this.#unsubscribe = onAbort(signal, aborted);
  }

  /**
   * `work`'s value, or {@link GAVE_UP} once the deadline is reached first. Rejects when `work`
   * rejects first; a later rejection is handled here (it cannot become an unhandled rejection).
   */
  race<T>(work: Promise<T>): Promise<T | typeof GAVE_UP> {
    return new Promise((resolve, reject) => this.watch(work, resolve, reject));
  }

  /**
   * The callback form of {@link race}, without a promise of its own: exactly one of `onValue`
   * (with `work`'s value, or {@link GAVE_UP}) and `onError` is called, once; at once (before
   * `watch` returns) when the deadline has already passed. Neither may throw.
   */
  watch<T>(
    work: Promise<T>,
    onValue: (value: T | typeof GAVE_UP) => void,
    onError: (error: unknown) => void,
  ): void {
    if (this.#passed) {
      // Past the deadline nothing is waited for, not even work that has already settled.
      work.catch(() => {});
      onValue(GAVE_UP);
      return;
    }
    const waiting = this.#waiting;
    // A slot the deadline emptied was answered with GAVE_UP: the work's own end then says nothing.
    const slot = waiting.push(onValue as (value: typeof GAVE_UP) => void) - 1;
    work.then(
      (value) => {
        if (waiting[slot] === undefined) return;
        waiting[slot] = undefined;
        onValue(value);
      },
      (error: unknown) => {
        if (waiting[slot] === undefined) return;
        waiting[slot] = undefined;
        onError(error);
      },
    );
  }

  /** Stops listening and clears a running grace timer (a pending wait then never gives up). */
  release(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting = [];
  }
}

/** The callbacks waiting on each signal, behind its one listener (see {@link onAbort}). */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once when `signal` fires; returns the function that cancels it. `callback`
 * must not throw. Every subscriber of one signal shares a single `abort` listener, added with
 * the first and removed with the last: a message with 1000 parallel calls waits on the run's
 * signal through one listener, not 1000 (Node warns past 10, and each add or remove walks the
 * signal's whole listener list, which made such a batch quadratic).
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const subscribed = new Set<() => void>();
    callbacks = subscribed;
    waiting.set(signal, subscribed);
    signal.addEventListener(
      "abort",
      () => {
        waiting.delete(signal);
        for (const one of subscribed) one();
      },
      { once: true },
    );
  }
  const subscribed = callbacks;
  subscribed.add(callback);
  return () => {
    subscribed.delete(callback);
  };
}

/**
 * Calls `run` and turns a synchronous throw into a rejected promise (hooks and tools may be plain
 * functions). A promise `run` returns is handed back as is: no wrapper, no extra turns.
 */
export function promiseOf<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}
