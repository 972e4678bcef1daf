/**
 * The file mutation queue of one environment: mutations of one file run one at a time in call
 * order, keyed by the environment's id and the real path, across every context of the host
 * process; an exclusive section (taken by the shell tools) waits for this queue's running
 * mutations and holds its new ones.
 */
import { ToolError } from "@tackle/agent-core";
import type { FileMutationQueue } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { type RealPathOperations, resolveRealPath } from "./path/real-path.js";
import { pathSyntax } from "./path/workspace-policy.js";

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const SETTLED: Promise<void> = Promise.resolve();

/** Waits for `promise`, rejecting with an `aborted` ToolError as soon as `signal` fires. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError(what));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(what));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function abortedError(what: string): ToolError {
  return new ToolError("aborted", `Aborted while waiting for ${what}; nothing was changed.`);
}

/**
 * Runs `fn` once `ready` settles and resolves `done` after it. Aborted while waiting: `fn` never
 * runs, the place is given up (`done` resolves; later calls still wait for the ones before).
 * Aborted while running: `done` resolves only once `fn` settled, because an aborted write may
 * still land and the next mutation must not race it.
 */
async function runWhenReady<T>(
  ready: Promise<unknown>,
  done: Deferred,
  fn: () => Promise<T>,
  signal: AbortSignal | undefined,
  what: string,
): Promise<T> {
  try {
    await untilAborted(ready, signal, what);
  } catch (error) {
    done.resolve();
    throw error;
  }
  try {
    return await fn();
  } finally {
    done.resolve();
  }
}

/**
 * Completion of the last mutation registered for each file, by environment and real path
 * (`<operations.id>\n<real path>`), for the whole host process: every queue of every context on
 * the same environment (two adapters, two agents in one host) serialises its mutations of one
 * file here. Kept on `globalThis` under a registered symbol, so two copies of this package in one
 * process (two versions in one dependency tree) still share it.
 */
/** Queues made on an adapter without an `id` (a partial one in a test) count as their own environments. */
let privateQueues = 0;

function processFileTails(): Map<string, Promise<void>> {
  const slot = Symbol.for("@tackle/tools:file-mutation-tails");
  const holder = globalThis as typeof globalThis & { [key: symbol]: Map<string, Promise<void>> | undefined };
  let tails = holder[slot];
  if (!tails) {
    tails = new Map();
    holder[slot] = tails;
  }
  return tails;
}

/**
 * Creates a {@link FileMutationQueue} over `operations` (used to resolve keys to real paths).
 * Hosts use one per environment object: {@link getFileMutationQueue} keeps it.
 *
 * Ordering: each call takes its place synchronously when it is made. Keys resolve in parallel
 * but are registered in call order, so a slow `realpath` never lets a later call overtake.
 *
 * Sharing: mutations of one file wait for each other across every queue of the host process
 * whose adapter reports the same `operations.id` (the file's identity is the environment's id
 * plus the real path this queue's own adapter resolves). An exclusive section stays this queue's
 * own: a command of one session does not hold another session's edits. Adapters that report the
 * same id for different environments only serialise more than needed; two ids for one
 * environment (an alias host name) do not share the queue, and the adapter's conditional write
 * (`WriteFileOptions.expect`) is what still keeps their edits from being lost.
 */
export function createFileMutationQueue(
  operations: RealPathOperations & Partial<Pick<Operations, "id">>,
): FileMutationQueue {
  const syntax = pathSyntax(operations.platform);
  /** Completion of the last mutation registered for each key (shared, see processFileTails). */
  const tails = processFileTails();
  // Without an id there is nothing to share by: the queue keeps to itself.
  const environment = operations.id ?? `queue:${++privateQueues}`;
  /** Completion of every mutation called so far and not yet settled (an exclusive waits for these). */
  const inFlight = new Set<Promise<void>>();
  /** Completion of the latest exclusive section (and, through its chain, of every earlier one). */
  let gate: Promise<void> = SETTLED;
  /** Registration of the latest call: the next call registers its key after this one. */
  let registration: Promise<unknown> = SETTLED;

  const keyOf = (real: string) =>
    `${environment}\n${operations.platform === "win32" ? real.toLowerCase() : real}`;
  const keyFor = async (path: string, signal: AbortSignal | undefined): Promise<string> => {
    try {
      const { real } = await resolveRealPath(operations, syntax, path, signal);
      return keyOf(real);
    } catch {
      // An unresolvable path still needs a key; the mutation itself will report the failure.
      return `${environment}\n${path}`;
    }
  };

  return {
    async withFileMutation(path, fn, options) {
      const signal = options?.signal;
      const gateAtCall = gate;
      const done = deferred();
      inFlight.add(done.promise);
      void done.promise.then(() => inFlight.delete(done.promise));
      // A path the caller already resolved is keyed as given: resolved once per change.
      const key = options?.real === true ? Promise.resolve(keyOf(path)) : keyFor(path, signal);
      const previous = registration.then(async () => {
        const k = await key;
        const before = tails.get(k) ?? SETTLED;
        const tail = before.then(() => done.promise);
        tails.set(k, tail);
        void tail.then(() => {
          if (tails.get(k) === tail) tails.delete(k);
        });
        // Wrapped: returning the promise itself would make registration wait for it to settle.
        return { before };
      });
      registration = previous;
      const ready = previous.then(({ before }) => Promise.all([before, gateAtCall]));
      return runWhenReady(ready, done, fn, signal, `an earlier change to ${path}`);
    },

    async withExclusive(fn, options) {
      const before = [...inFlight];
      const gateBefore = gate;
      const done = deferred();
      gate = gateBefore.then(() => done.promise);
      return runWhenReady(
        Promise.all([...before, gateBefore]),
        done,
        fn,
        options?.signal,
        "running file changes",
      );
    },
  };
}

const queues = new WeakMap<Operations, FileMutationQueue>();

/**
 * The file mutation queue of one environment object: every context made on the same
 * `Operations` object shares it (and its exclusive sections). Its mutations of one file also wait
 * for those of every other queue on an adapter with the same `operations.id` in this process
 * (see {@link createFileMutationQueue}), so two adapters or two agents on one directory never
 * run two edits of one file at once.
 *
 * The queue object is per adapter object, not per id: two adapters that report the same id (two
 * SSH connections to one host, a local adapter and a wrapper around it) have separate
 * lifetimes, and each resolves its keys through its own adapter (a queue that resolved keys
 * through whichever adapter was seen last failed as "disposed" once that one was disposed). The
 * queue is dropped with its adapter (weakly held); the shared per-file chains empty themselves.
 */
export function getFileMutationQueue(operations: Operations): FileMutationQueue {
  let queue = queues.get(operations);
  if (!queue) {
    queue = createFileMutationQueue(operations);
    queues.set(operations, queue);
  }
  return queue;
}
