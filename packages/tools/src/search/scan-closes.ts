/**
 * Ending a scan the tool left early, without making the answer wait for it. Leaving a native
 * scan's loop stops its engine: ripgrep is killed and the close resolves once the process has
 * exited, about a millisecond of the kernel tearing it down and Node reaping it on every page of
 * a paged search. The tool lays out its page meanwhile and waits for the closes only before it
 * answers: no engine outlives the call, and the wait overlaps work that had to be done anyway.
 */

/** Closes of scans left early, to be awaited before the tool answers (see the module comment). */
export class ScanCloses {
  readonly #pending: Promise<void>[] = [];
  #failure: { error: unknown } | undefined;

  /** Adds the close of an iterator left early; a failure is kept for {@link settled}. */
  add(close: Promise<unknown>): void {
    this.#pending.push(
      close.then(
        () => {},
        (error: unknown) => {
          this.#failure ??= { error };
        },
      ),
    );
  }

  /** Resolves once every close added so far has settled; rejects with the first failure. */
  async settled(): Promise<void> {
    while (this.#pending.length > 0) await Promise.all(this.#pending.splice(0));
    if (this.#failure) throw this.#failure.error;
  }
}

/**
 * Feeds the items of `source` to `take` until it returns false (the caller has what it needs) or
 * the source ends. Leaving early hands the iterator's close to `closes` instead of waiting for it;
 * without `closes`, or once `signal` has aborted, the close is awaited here: a scan that was
 * stopped must have ended before the next one starts (see `sortedFirst`).
 */
export async function scanWhile<T>(
  source: AsyncIterable<T>,
  take: (item: T) => boolean,
  closes: ScanCloses | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  for (;;) {
    // A source that throws has ended: there is nothing to close.
    const next = await iterator.next();
    if (next.done) return;
    let more: boolean;
    try {
      more = take(next.value);
    } catch (error) {
      await iterator.return?.();
      throw error;
    }
    if (more) continue;
    const close = iterator.return?.() ?? Promise.resolve();
    if (closes && !signal?.aborted) closes.add(close);
    else await close;
    return;
  }
}
