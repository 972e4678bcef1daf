/**
 * Writes a planned patch: each file atomically through `Operations.writeFile` (as edit and write
 * do), removals last. One environment cannot rename several files at once, so when a write fails
 * midway the files already written get their old content back (created ones are removed): the
 * patch lands whole or not at all, and the rare case where restoring fails too is reported.
 */
import type { ExtensionContext, ReadRecord } from "@tackle/extensions";
import { pathSyntax, recordRead, withinRoot } from "@tackle/session";
import type { PatchPlan } from "./plan-files.js";

/** A file the commit changed, for the audit record. */
export interface CommittedFile {
  path: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
  sha256Before?: string | undefined;
  sha256After?: string | undefined;
}

/** Why a commit stopped: the file, the cause, and whether every earlier change was undone. */
export class PatchCommitError extends Error {
  constructor(
    readonly path: string,
    override readonly cause: unknown,
    readonly restored: boolean,
  ) {
    super(`writing ${path} failed`);
  }
}

/** Writes every changed file of `plan`; throws {@link PatchCommitError} after undoing what it can. */
export async function commitPatch(
  ctx: ExtensionContext,
  plan: PatchPlan,
  signal: AbortSignal | undefined,
): Promise<CommittedFile[]> {
  const syntax = pathSyntax(ctx.operations.platform);
  const changes = [...plan.after].filter(([real, bytes]) => {
    const before = plan.disk.get(real)?.bytes ?? null;
    return !(before === null ? bytes === null : bytes !== null && Buffer.compare(before, bytes) === 0);
  });
  // Writes before removals: a removal is the one step a failed write could not give back unasked.
  changes.sort(([, a], [, b]) => Number(a === null) - Number(b === null));
  const done: CommittedFile[] = [];
  // What the ledger said before, put back by an undo: a restored file is not one the model read.
  const ledger = new Map(changes.map(([real]) => [real, ctx.reads.get(real)]));
  for (const [real, bytes] of changes) {
    const disk = plan.disk.get(real);
    if (!disk) continue;
    try {
      if (bytes === null) {
        await ctx.operations.remove(real, { signal });
        ctx.reads.forget(real);
        done.push({ path: real, before: disk.bytes, after: null, sha256Before: disk.sha256 });
      } else {
        if (disk.bytes === null)
          await ctx.operations.mkdir(syntax.dirname(real), { recursive: true, signal });
        await ctx.operations.writeFile(real, bytes, withinRoot(disk.target, signal));
        // The model knows this content now: a follow-up edit must not be refused as stale.
        const sha256After = recordRead(ctx, real, bytes);
        done.push({ path: real, before: disk.bytes, after: bytes, sha256Before: disk.sha256, sha256After });
      }
    } catch (error) {
      const restored = await undo(ctx, plan, done, ledger);
      throw new PatchCommitError(disk.target.display, error, restored);
    }
  }
  return done;
}

/** Puts back what `done` changed, newest first (no signal: an abort must not leave half a patch). */
async function undo(
  ctx: ExtensionContext,
  plan: PatchPlan,
  done: readonly CommittedFile[],
  ledger: ReadonlyMap<string, ReadRecord | undefined>,
): Promise<boolean> {
  let restored = true;
  for (const file of [...done].reverse()) {
    const disk = plan.disk.get(file.path);
    try {
      if (file.before === null) await ctx.operations.remove(file.path, {});
      else
        await ctx.operations.writeFile(
          file.path,
          file.before,
          disk ? withinRoot(disk.target, undefined) : {},
        );
      const record = ledger.get(file.path);
      if (record) ctx.reads.record(file.path, record.sha256, record.window);
      else ctx.reads.forget(file.path);
    } catch {
      restored = false;
    }
  }
  return restored;
}
