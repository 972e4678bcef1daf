import type { AuditRecorder } from "@tackle/agent-core";
import type { ExtensionContext, FileMutationQueue } from "@tackle/extensions";
import {
  hashSnapshot,
  pathsToHashAfter,
  SNAPSHOT_SAME_STAMP_WINDOW_MS,
  type SnapshotHashes,
  withContentHashes,
} from "./content-hashes.js";
import { trackedSnapshot } from "./tracked-tree.js";
import {
  compareSnapshots,
  recordWorkspaceChanges,
  SNAPSHOT_MAX_ENTRIES,
  SNAPSHOT_TIME_BUDGET_MS,
  type WorkspaceSnapshot,
} from "./workspace-snapshot.js";

/**
 * The snapshots of an audited shell call, handed to the run so they are taken while the run waits
 * on something else anyway: the before snapshot while the output file is created, the after
 * snapshot while the environment finishes the output or the run reads it back.
 */
export interface WorkspaceSnapshotHook {
  /**
   * Takes the before snapshot (once; later calls return the same promise). The run must await it
   * before its command starts. The listing starts on the next turn of the event loop, so file
   * operations the run started just before (the output file's creation) are already under way.
   */
  before(): Promise<void>;
  /**
   * Starts the after snapshot (once), on the next turn of the event loop: call it when the
   * command and every process it started have ended. Not called by the run, it is taken when
   * the run returns.
   */
  after(): void;
}

/**
 * Runs a shell command between two bounded snapshots of its working directory and records what
 * changed (only when the call is audited; otherwise just runs it, without a hook). The run takes
 * the snapshots through the hook: the before snapshot before its command starts (a run that never
 * asked for it started nothing, and its record compares the after snapshot with itself), the
 * after snapshot once the command's processes have ended (at the latest when the run returns).
 * Both are taken inside the caller's exclusive section, so no file tool's change is mistaken for
 * the command's, and never at the same time.
 */
export async function withWorkspaceAudit<T>(
  ctx: ExtensionContext,
  cwd: string,
  audit: AuditRecorder,
  signal: AbortSignal | undefined,
  run: (hook: WorkspaceSnapshotHook | undefined) => Promise<T>,
): Promise<T> {
  if (!audit.enabled) return run(undefined);
  const limits = { maxEntries: SNAPSHOT_MAX_ENTRIES, timeBudgetMs: SNAPSHOT_TIME_BUDGET_MS };
  let before: Promise<WorkspaceSnapshot> | undefined;
  let after: Promise<WorkspaceSnapshot> | undefined;
  let beforeHashes: SnapshotHashes | undefined;
  let startedAt = Date.now();
  const hook: WorkspaceSnapshotHook = {
    before() {
      before ??= (async () => {
        const snapshot = await trackedSnapshot(ctx.operations, ctx.state, cwd, { ...limits, signal });
        startedAt = Date.now();
        // Files recent enough to be rewritten without a new mtime are read, not taken as known.
        beforeHashes = await hashSnapshot(ctx.operations, snapshot, {
          readSince: startedAt - SNAPSHOT_SAME_STAMP_WINDOW_MS,
        });
        return snapshot;
      })();
      return before.then(() => undefined);
    },
    after() {
      // Not tied to the call's signal: a cancelled command's changes are the ones most worth seeing.
      after ??= Promise.resolve(before).then(() => trackedSnapshot(ctx.operations, ctx.state, cwd, limits));
    },
  };
  try {
    return await run(hook);
  } finally {
    hook.after();
    const last = await (after as Promise<WorkspaceSnapshot>);
    const first = before === undefined ? last : await before;
    const changes = compareSnapshots(first, last);
    const afterHashes = await hashSnapshot(ctx.operations, last, {
      only: pathsToHashAfter(first, last, changes, startedAt),
    });
    const files = withContentHashes(changes, beforeHashes?.hashes ?? new Map(), afterHashes.hashes, last);
    recordWorkspaceChanges(audit, first, last, files, {
      ...limits,
      unhashed: (beforeHashes?.missed ?? 0) + afterHashes.missed,
    });
  }
}

/**
 * The context's mutation queue, whose `withExclusive` runs its section between the workspace
 * snapshots of {@link withWorkspaceAudit}, giving the section the hook that takes the before
 * snapshot (undefined when the call is not audited: the queue's own section, nothing listed).
 */
export function auditedMutations(
  ctx: ExtensionContext,
  cwd: string,
  audit: AuditRecorder,
  signal: AbortSignal | undefined,
): {
  withExclusive<T>(
    fn: (hook: WorkspaceSnapshotHook | undefined) => Promise<T>,
    options?: Parameters<FileMutationQueue["withExclusive"]>[1],
  ): Promise<T>;
} {
  if (!audit.enabled) {
    return { withExclusive: (fn, options) => ctx.mutations.withExclusive(() => fn(undefined), options) };
  }
  return {
    withExclusive: (fn, options) =>
      ctx.mutations.withExclusive(() => withWorkspaceAudit(ctx, cwd, audit, signal, fn), options),
  };
}
