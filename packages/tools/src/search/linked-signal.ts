import { setMaxListeners } from "node:events";

/**
 * The reason of a linked signal aborted by its own `abort()`: one shared value, because a fresh
 * `AbortError` captures a stack trace on every stop, a fixed cost on every page (the tools stop
 * their scans on every call) for a reason nobody reads.
 */
const STOPPED = new DOMException("The search was stopped", "AbortError");

/**
 * A signal that aborts with `outer` and when `abort()` is called (the consumer stopped early),
 * so work started ahead of the consumer ends its I/O. Many calls run on it at once (prefetched
 * listings, concurrent file searches), each adding an abort listener: the listener cap is raised
 * so Node does not warn about a leak that is not one.
 */
export function linkedSignal(outer: AbortSignal | undefined): { signal: AbortSignal; abort(): void } {
  const controller = new AbortController();
  setMaxListeners(256, controller.signal);
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    abort() {
      outer?.removeEventListener("abort", onAbort);
      controller.abort(STOPPED);
    },
  };
}
