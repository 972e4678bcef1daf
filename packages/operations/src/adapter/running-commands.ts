/**
 * The commands an adapter is running now, so `dispose()` can end them: each `exec` runs under
 * its own `AbortController` that follows the caller's signal, and `cancelAll` aborts every one
 * and waits until each call has settled (its processes ended by the adapter's own stop path).
 * Nothing of a disposed adapter's commands keeps running.
 *
 * @example
 * ```ts
 * const running = new RunningCommands();
 * const exec: Operations["exec"] = (command, options) =>
 *   running.run(options.signal, (signal) => runInMyEnvironment(command, { ...options, signal }));
 * const dispose = () => running.cancelAll();
 * ```
 */
export class RunningCommands<T = unknown> {
  private readonly calls = new Map<Promise<T>, AbortController>();

  /** How many calls are running now. */
  get size(): number {
    return this.calls.size;
  }

  /**
   * Starts `start` with a signal that aborts when `caller` does or when `cancelAll` runs,
   * and tracks the call until it settles. Returns the call's own promise.
   */
  run(caller: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const forward = () => controller.abort(caller?.reason);
    if (caller?.aborted) forward();
    else caller?.addEventListener("abort", forward, { once: true });
    let call: Promise<T>;
    try {
      call = start(controller.signal);
    } catch (error) {
      caller?.removeEventListener("abort", forward);
      return Promise.reject(error);
    }
    this.calls.set(call, controller);
    const settle = () => {
      this.calls.delete(call);
      caller?.removeEventListener("abort", forward);
    };
    void call.then(settle, settle);
    return call;
  }

  /** Aborts every running call (with `reason`) and resolves once all of them have settled. */
  async cancelAll(reason: unknown = new Error("Operations disposed")): Promise<void> {
    for (const controller of this.calls.values()) controller.abort(reason);
    await Promise.allSettled([...this.calls.keys()]);
  }
}
