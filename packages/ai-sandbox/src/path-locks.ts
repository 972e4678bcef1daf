/**
 * One writer at a time per path, for every adapter on one sandbox session in this process: the
 * compare and the write of a conditional write in `"basic"` mode are two session calls, and
 * this keeps every conditional writer that goes through this package out of the gap between
 * them. A writer that does not (a command in the session, another process) can still land there.
 */
const locks = new WeakMap<object, Map<string, Promise<void>>>();

/** Runs `fn` once every earlier call for `key` on `owner` has settled. */
export async function withPathLock<T>(owner: object, key: string, fn: () => Promise<T>): Promise<T> {
  let byKey = locks.get(owner);
  if (!byKey) {
    byKey = new Map();
    locks.set(owner, byKey);
  }
  const before = byKey.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = before.then(() => mine);
  byKey.set(key, tail);
  try {
    await before;
    return await fn();
  } finally {
    release();
    if (byKey.get(key) === tail) byKey.delete(key);
  }
}
