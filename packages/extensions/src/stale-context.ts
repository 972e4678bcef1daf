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

const TARGET = Symbol("guarded target");
const STATE = Symbol("guard state");

interface Guard {
  isLive: () => boolean;
  what: string;
}

interface GuardedView {
  [TARGET]: object;
  [STATE]: Guard;
}

/**
 * One prototype per shape (the keys and which stay readable): each key an accessor that checks
 * the view's guard and reads from its target. A view is then one small object per call, not a
 * property definition per key.
 */
const prototypes = new Map<string, object>();

function prototypeFor(keys: readonly PropertyKey[], readableAfter: ReadonlySet<PropertyKey>): object {
  const id = `${keys.map(String).join("\n")}\u0000${[...readableAfter].map(String).join("\n")}`;
  let proto = prototypes.get(id);
  if (proto !== undefined) return proto;
  proto = Object.create(null) as object;
  for (const key of keys) {
    const always = readableAfter.has(key);
    Object.defineProperty(proto, key, {
      enumerable: true,
      get(this: GuardedView) {
        const guard = this[STATE];
        if (!always && !guard.isLive()) throw new StaleContextError(guard.what);
        return Reflect.get(this[TARGET], key);
      },
      set(this: GuardedView, value: unknown) {
        Reflect.set(this[TARGET], key, value);
      },
    });
  }
  prototypes.set(id, proto);
  return proto;
}

/**
 * A view of `target` whose every property read throws {@link StaleContextError} once `isLive()`
 * is false (reads, not just creation: extensions keep contexts in closures). The view answers
 * the target's own enumerable properties (as they were when the view was made) through
 * accessors; writes go to the target. Properties named in `readableAfter` stay readable (what
 * identifies it). Read it field by field (as `contextForCall` does): the accessors are not own
 * properties, so a spread of the view copies nothing.
 */
export function guardContext<T extends object>(
  target: T,
  isLive: () => boolean,
  what = "a context",
  readableAfter: readonly PropertyKey[] = [],
): T {
  const view = Object.create(prototypeFor(Object.keys(target), new Set(readableAfter))) as GuardedView;
  view[TARGET] = target;
  view[STATE] = { isLive, what };
  return view as unknown as T;
}

/** Prototypes made for a fixed list of keys (see {@link guardKeys}), by the list's identity. */
const byKeyList = new WeakMap<readonly PropertyKey[], object>();

/**
 * {@link guardContext} for targets of one known shape: `keys` is a constant list (the same array
 * every time), so a view costs one small object and no look at the target's keys. The extension
 * runner guards every hook's context this way.
 */
export function guardKeys<T extends object>(
  target: T,
  keys: readonly PropertyKey[],
  isLive: () => boolean,
  what: string,
): T {
  let proto = byKeyList.get(keys);
  if (proto === undefined) {
    proto = prototypeFor(keys, new Set());
    byKeyList.set(keys, proto);
  }
  const view = Object.create(proto) as GuardedView;
  view[TARGET] = target;
  view[STATE] = { isLive, what };
  return view as unknown as T;
}
