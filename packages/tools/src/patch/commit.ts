/**
 * Writes a planned patch: each file atomically through `Operations.writeFile` (as edit and write
 * do), removals last. Every write is conditional (`expect`: the bytes the plan read, or no file),
 * so a change another writer made after the plan's read is never overwritten: the commit stops,
 * and the caller plans again on the fresh content. One environment cannot rename several files
 * at once, so when a write fails midway the files already written get their old content back
 * (created ones are removed), each only if it still holds what the patch wrote: the patch lands
 * whole or not at all, and the rare case where restoring fails too is reported.
 */
import type { ExtensionContext, ReadRecord } from "@tackle/extensions";
import { isOperationError, type WriteExpectation } from "@tackle/operations";
import { pathSyntax, recordRead, sha256Hex, withinRoot } from "@tackle/session";
import type { FileOnDisk, PatchPlan } from "./plan-files.js";

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

/**
 * Another writer changed `path` between the plan's read and its write; every file the commit had
 * written was restored, so the patch can be planned again on the fresh content.
 */
export class PatchChangedError extends Error {
  constructor(readonly path: string) {
    super(`${path} changed while the patch was being written`);
  }
}

/** What a file must still hold for the plan's change to replace it. */
function expectationOf(disk: FileOnDisk): WriteExpectation {
  if (disk.bytes === null) return { absent: true };
  disk.sha256 ??= sha256Hex(disk.bytes);
  return { sha256: disk.sha256 };
}

/** The file's current bytes, or null when it does not exist. */
async function current(
  ctx: ExtensionContext,
  path: string,
  signal: AbortSignal | undefined,
): Promise<Uint8Array | null> {
  try {
    return await ctx.operations.readFile(path, { signal });
  } catch (error) {
    if (isOperationError(error, "not_found")) return null;
    throw error;
  }
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  return a === null || b === null ? a === b : a.length === b.length && Buffer.compare(a, b) === 0;
}

/**
 * Writes every changed file of `plan`. Throws {@link PatchChangedError} when a file no longer
 * holds what the plan read (after undoing what it wrote), {@link PatchCommitError} for any other
 * failure (after undoing what it can).
 */
export async function commitPatch(
  ctx: ExtensionContext,
  plan: PatchPlan,
  signal: AbortSignal | undefined,
): Promise<CommittedFile[]> {
  const syntax = pathSyntax(ctx.operations.platform);
  const changes = [...plan.after].filter(
    ([real, bytes]) => !sameBytes(plan.disk.get(real)?.bytes ?? null, bytes),
  );
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
        // Removing has no compare-and-swap: the content is checked right before, which leaves
        // only the moment between the check and the removal open.
        if (!sameBytes(await current(ctx, real, signal), disk.bytes))
          throw new PatchChangedError(disk.target.display);
        await ctx.operations.remove(real, { signal });
        ctx.reads.forget(real);
        done.push({ path: real, before: disk.bytes, after: null, sha256Before: disk.sha256 });
      } else {
        if (disk.bytes === null)
          await ctx.operations.mkdir(syntax.dirname(real), { recursive: true, signal });
        await ctx.operations.writeFile(real, bytes, {
          ...withinRoot(disk.target, signal),
          expect: expectationOf(disk),
        });
        // The model knows this content now: a follow-up edit must not be refused as stale.
        const sha256After = recordRead(ctx, real, bytes);
        done.push({ path: real, before: disk.bytes, after: bytes, sha256Before: disk.sha256, sha256After });
      }
    } catch (error) {
      const restored = await undo(ctx, plan, done, ledger);
      const changed = error instanceof PatchChangedError || isOperationError(error, "changed");
      if (changed && restored) throw new PatchChangedError(disk.target.display);
      throw new PatchCommitError(disk.target.display, error, restored);
    }
  }
  return done;
}

/**
 * Puts back what `done` changed, newest first, each file only while it holds what the patch
 * wrote (no signal: an abort must not leave half a patch). False when any file could not be put
 * back, or another writer had changed it since.
 */
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
      if (file.before === null) {
        if (!sameBytes(await current(ctx, file.path, undefined), file.after)) {
          restored = false;
          continue;
        }
        await ctx.operations.remove(file.path, {});
      } else {
        const expect: WriteExpectation =
          file.after === null ? { absent: true } : { sha256: file.sha256After ?? sha256Hex(file.after) };
        await ctx.operations.writeFile(file.path, file.before, {
          ...(disk ? withinRoot(disk.target, undefined) : {}),
          expect,
        });
      }
      const record = ledger.get(file.path);
      if (record) ctx.reads.record(file.path, record.sha256, record.window);
      else ctx.reads.forget(file.path);
    } catch {
      restored = false;
    }
  }
  return restored;
}
