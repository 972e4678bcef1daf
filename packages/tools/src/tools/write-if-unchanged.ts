/**
 * The commit of write and edit: the new bytes replace the file only if it still holds the bytes
 * the tool read (`WriteFileOptions.expect`, compared by the adapter right before its rename, under
 * the file's write lock). The mutation queue already keeps this host's tools from overlapping;
 * this closes the rest: another host process, another adapter id, a program in the environment.
 */
import type { ExtensionContext, ResolvedPath } from "@tackle/extensions";
import { isOperationError, type WriteExpectation } from "@tackle/operations";
import { sha256Hex, withinRoot } from "@tackle/session";

/**
 * How many times a call may find the file changed at its commit and redo its change on the fresh
 * content before it gives up (each time another writer's rename came between its read and its own).
 */
export const MAX_COMMIT_ATTEMPTS = 8;

/** One try at the commit: what was read and what is to be written over it. */
export interface CommitAttempt {
  /** The file's bytes as read, or `null` when it did not exist. */
  before: Uint8Array | null;
  /**
   * sha256 of `before` when already known (the read ledger computed it), so it is not hashed
   * twice; the commit fills it in otherwise, for the caller's audit record.
   */
  sha256Before?: string | undefined;
  /** What to write; `undefined` when nothing needs writing any more (the change is already there). */
  data: Uint8Array | undefined;
}

/** What the commit did. */
export interface CommitResult<T extends CommitAttempt> {
  /** The attempt that was written (or found nothing to write). */
  attempt: T;
  /** How many times the file had changed and `redo` ran on fresh content. */
  redone: number;
}

/**
 * Writes `first.data` over `target` if it still holds `first.before`. When the adapter reports
 * `changed`, reads the file again and asks `redo` for a new attempt on the fresh bytes (`null`:
 * the file is gone); `redo` throws to give up (a `stale_read` that shows the fresh lines). After
 * {@link MAX_COMMIT_ATTEMPTS} changed commits, `tooBusy` is thrown.
 */
export async function writeIfUnchanged<T extends CommitAttempt>(
  ctx: Pick<ExtensionContext, "operations">,
  target: ResolvedPath,
  first: T,
  redo: (fresh: Uint8Array | null) => T,
  tooBusy: () => Error,
  signal: AbortSignal | undefined,
): Promise<CommitResult<T>> {
  const ops = ctx.operations;
  let attempt = first;
  for (let redone = 0; ; redone++) {
    if (attempt.data === undefined) return { attempt, redone };
    // Kept on the attempt: the caller's audit record needs the same hash, not a second pass.
    if (attempt.before !== null) attempt.sha256Before ??= sha256Hex(attempt.before);
    const expect: WriteExpectation =
      attempt.before === null || attempt.sha256Before === undefined
        ? { absent: true }
        : { sha256: attempt.sha256Before };
    try {
      await ops.writeFile(target.real, attempt.data, { ...withinRoot(target, signal), expect });
      return { attempt, redone };
    } catch (error) {
      if (!isOperationError(error, "changed")) throw error;
    }
    if (redone + 1 >= MAX_COMMIT_ATTEMPTS) throw tooBusy();
    const fresh = await ops.readFile(target.real, { signal }).catch((error: unknown) => {
      if (isOperationError(error, "not_found")) return null;
      throw error;
    });
    attempt = redo(fresh);
  }
}
