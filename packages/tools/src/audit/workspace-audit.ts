import type { AuditRecorder } from "@tackle/agent-core";
import type { ExtensionContext, FileMutationQueue } from "@tackle/extensions";
import {
  recordWorkspaceChanges,
  SNAPSHOT_MAX_ENTRIES,
  SNAPSHOT_TIME_BUDGET_MS,
  snapshotWorkspace,
} from "./workspace-snapshot.js";

/**
 * Runs a shell command between two bounded snapshots of its working directory and records what
 * changed (only when the call is audited; otherwise just runs it). The snapshots are taken inside
 * the caller's exclusive section, so no file tool's change is mistaken for the command's.
 */
export async function withWorkspaceAudit<T>(
  ctx: ExtensionContext,
  cwd: string,
  audit: AuditRecorder,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  if (!audit.enabled) return run();
  const limits = { maxEntries: SNAPSHOT_MAX_ENTRIES, timeBudgetMs: SNAPSHOT_TIME_BUDGET_MS };
  const before = await snapshotWorkspace(ctx.operations, cwd, { ...limits, signal });
  try {
    return await run();
  } finally {
    // Not tied to the call's signal: a cancelled command's changes are the ones most worth seeing.
    const after = await snapshotWorkspace(ctx.operations, cwd, limits);
    recordWorkspaceChanges(audit, before, after, limits);
  }
}

/**
 * The context's mutation queue, whose `withExclusive` runs its section between the workspace
 * snapshots of {@link withWorkspaceAudit} (the queue itself when the call is not audited).
 */
export function auditedMutations(
  ctx: ExtensionContext,
  cwd: string,
  audit: AuditRecorder,
  signal: AbortSignal | undefined,
): Pick<FileMutationQueue, "withExclusive"> {
  if (!audit.enabled) return ctx.mutations;
  return {
    withExclusive: (fn, options) =>
      ctx.mutations.withExclusive(() => withWorkspaceAudit(ctx, cwd, audit, signal, fn), options),
  };
}
