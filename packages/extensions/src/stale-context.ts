import { ToolError } from "@tackle/agent-core";

/** Code of the error a stale context throws. */
export const STALE_CONTEXT = "stale_context";

/**
 * Thrown when code uses a context or session its host has let go of: a tool session that was
 * disposed, or the context of an extension runtime that was unloaded or reloaded. Using it would
 * act on an environment or session nobody ends any more. One error, one wording, for both.
 */
export class StaleContextError extends ToolError {
  constructor(what: string) {
    super(
      STALE_CONTEXT,
      `Not run: ${what} was closed by its host (disposed, unloaded or reloaded). Use the context of the current call; if there is none, tell the user a new session is needed.`,
    );
  }
}

/**
 * A view of `target` whose every property read throws {@link StaleContextError} once `isLive()`
 * is false (reads, not just creation: extensions keep contexts in closures). The view has the
 * target's own enumerable properties as accessors, so `{ ...view }` copies them while live; writes
 * go to the target. Properties named in `readableAfter` stay readable (what identifies it).
 */
export function guardContext<T extends object>(
  target: T,
  isLive: () => boolean,
  what = "a context",
  readableAfter: readonly PropertyKey[] = [],
): T {
  const view = Object.create(Object.getPrototypeOf(target)) as T;
  const always = new Set(readableAfter);
  for (const key of Reflect.ownKeys(target)) {
    const own = Object.getOwnPropertyDescriptor(target, key);
    if (own === undefined || !own.enumerable) continue;
    Object.defineProperty(view, key, {
      enumerable: true,
      configurable: true,
      get() {
        if (!always.has(key) && !isLive()) throw new StaleContextError(what);
        return Reflect.get(target, key);
      },
      set(value: unknown) {
        Reflect.set(target, key, value);
      },
    });
  }
  return view;
}
