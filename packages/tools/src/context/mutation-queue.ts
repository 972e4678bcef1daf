/**
 * The file mutation queue of one environment: mutations of one file run one at a time in call
 * order, keyed by real path; an exclusive section (taken by the shell tools) waits for running
 * mutations and holds new ones.
 */
import { ToolError } from "@tackle/agent-core";
import type { FileMutationQueue } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { type RealPathOperations, resolveRealPath } from "../path/real-path.js";
import { pathSyntax } from "../path/workspace-policy.js";

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
 * Creates a {@link FileMutationQueue} over `operations` (used to resolve keys to real paths).
 * Hosts use one per environment object: {@link getFileMutationQueue} keeps it.
 *
 * Ordering: each call takes its place synchronously when it is made. Keys resolve in parallel
 * but are registered in call order, so a slow `realpath` never lets a later call overtake.
 */
export function createFileMutationQueue(operations: RealPathOperations): FileMutationQueue {
  const syntax = pathSyntax(operations.platform);
  /** Completion of the last mutation registered for each key. */
  const tails = new Map<string, Promise<void>>();
  /** Completion of every mutation called so far and not yet settled (an exclusive waits for these). */
  const inFlight = new Set<Promise<void>>();
  /** Completion of the latest exclusive section (and, through its chain, of every earlier one). */
  let gate: Promise<void> = SETTLED;
  /** Registration of the latest call: the next call registers its key after this one. */
  let registration: Promise<unknown> = SETTLED;

  const keyFor = async (path: string, signal: AbortSignal | undefined): Promise<string> => {
    try {
      const { real } = await resolveRealPath(operations, syntax, path, signal);
      return operations.platform === "win32" ? real.toLowerCase() : real;
    } catch {
      // An unresolvable path still needs a key; the mutation itself will report the failure.
      return path;
    }
  };

  return {
    async withFileMutation(path, fn, options) {
      const signal = options?.signal;
      const gateAtCall = gate;
      const done = deferred();
      inFlight.add(done.promise);
      void done.promise.then(() => inFlight.delete(done.promise));
      const key = keyFor(path, signal);
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
 * `Operations` object shares it, so two sessions on one adapter serialise their edits of one
 * file (a link and its target included: keys are real paths resolved by that adapter).
 *
 * Keyed by the object, not by `operations.id`: two adapters that report the same id (two SSH
 * connections to one host, a local adapter and a wrapper around it) are separate objects with
 * separate lifetimes, and a queue that resolved keys through whichever was seen last failed as
 * "disposed" once that one was disposed. Hosts that want two sessions on one machine to
 * serialise give both the same adapter. The queue is dropped with its adapter (weakly held).
 */
export function getFileMutationQueue(operations: Operations): FileMutationQueue {
  let queue = queues.get(operations);
  if (!queue) {
    queue = createFileMutationQueue(operations);
    queues.set(operations, queue);
  }
  return queue;
}
