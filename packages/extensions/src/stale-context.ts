import { ToolError } from "@tackle/agent-core";

/** Code of the error a stale {@link ExtensionContext} throws. */
export const STALE_CONTEXT = "stale_context";

/**
 * Thrown when code uses a context of a runtime that was unloaded or reloaded since the context
 * was made. Using it would act on an environment or session the host has already let go of.
 */
export class StaleContextError extends ToolError {
  constructor(what: string) {
    super(
      STALE_CONTEXT,
      `Stale extension context: ${what} was used after its runtime was unloaded or reloaded. Use the context of the current call.`,
    );
  }
}

/**
 * Wraps `target` so every property read throws {@link StaleContextError} once `isLive()` is
 * false. Reads are checked (not just creation) because extensions keep contexts in closures.
 */
export function guardContext<T extends object>(target: T, isLive: () => boolean, what = "a context"): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (!isLive()) throw new StaleContextError(what);
      return Reflect.get(object, property, receiver);
    },
  });
}
