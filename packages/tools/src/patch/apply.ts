/**
 * Applies a V4A patch on a tool context: parse, check every path, take the mutation queue of
 * every file it touches (in one order, so two patches never wait on each other), plan every
 * section, then write. All or nothing: one section that cannot apply changes no file. The
 * apply_patch tool, the shell tool's `apply_patch <<'EOF'` form and the OpenAI apply_patch
 * handler all come here.
 */

import type { AuditFileChange } from "@tackle/agent-core";
import { isToolError, ToolError } from "@tackle/agent-core";
import type { ChangeFeedback, ExtensionContext, ResolvedPath } from "@tackle/extensions";
import { pathSyntax, sha256Hex } from "@tackle/session";
import { reportAfterChange } from "../diagnostics/after-change.js";
import { toToolError } from "../tool-errors.js";
import { MAX_COMMIT_ATTEMPTS } from "../tools/write-if-unchanged.js";
import { type CommittedFile, commitPatch, PatchChangedError, PatchCommitError } from "./commit.js";
import type { HunkOutcome } from "./locate.js";
import { busyMessage, changedWhileSavingMessage, commitFailedMessage } from "./messages.js";
import { type ParsedPatch, parsePatch } from "./parse.js";
import { type PatchPlan, type PlannedChange, planPatch, resolvePatchPaths } from "./plan-files.js";

/** What one section of a patch did. */
export interface PatchFileResult {
  /** The file the section names, as displayed (relative to cwd). */
  path: string;
  action: "add" | "update" | "delete" | "insert";
  /** Where an update moved the file. */
  movedTo?: string;
  /** False when it changed nothing (already applied). */
  changed: boolean;
  /** Unified diff of the change ("" for a delete or an unchanged file). */
  diff: string;
  added: number;
  removed: number;
  /** Per hunk of an update: matcher and line, or already applied. */
  hunks: HunkOutcome[];
  /** The syntax check and diagnostics of the file as written (absent when nothing was written to it). */
  feedback?: ChangeFeedback;
  /** What the result says about that feedback, for the model (absent when there is nothing to act on). */
  feedbackText?: string;
}

/** What applying a patch reports to hosts. */
export interface ApplyPatchDetails {
  dryRun: boolean;
  /** False when no file changed (every section already applied). */
  changed: boolean;
  files: PatchFileResult[];
  /**
   * Times another writer changed a file between this call's read and its write, so the patch was
   * planned again on the fresh content (0 normally; see docs/write-safety.md).
   */
  redone: number;
}

/** Options of {@link applyPatch}. */
export interface ApplyPatchOptions {
  signal?: AbortSignal | undefined;
  /** The call, for the audit record. */
  toolCallId: string;
  /** Plan and report without writing. */
  dryRun?: boolean;
  /** Where the audit record says the change came from (default "patch"). */
  source?: string;
  /** Directory relative patch paths start from (default: the context's cwd), e.g. a shell call's cwd. */
  baseDir?: string;
  /** The tool the change is reported for (diagnostics events; default "apply_patch"). */
  toolName?: string;
}

/** Parses `patchText` and applies it (see {@link applyParsedPatch}). */
export async function applyPatch(
  ctx: ExtensionContext,
  patchText: string,
  options: ApplyPatchOptions,
): Promise<ApplyPatchDetails> {
  return applyParsedPatch(ctx, parsePatch(patchText), options);
}

/**
 * Applies a parsed patch. Throws a `ToolError` (the codes of edit and write, plus
 * `invalid_arguments` for a malformed patch) and changes nothing when any section fails.
 */
export async function applyParsedPatch(
  ctx: ExtensionContext,
  patch: ParsedPatch | { sections: readonly PlannedChange[] },
  options: ApplyPatchOptions,
): Promise<ApplyPatchDetails> {
  const { signal } = options;
  const sections =
    options.baseDir === undefined ? patch.sections : rebase(ctx, patch.sections, options.baseDir);
  const resolved = await resolvePatchPaths(ctx, sections, signal);
  const reals = [...new Set([...resolved.values()].map((path) => path.real))].sort();
  const run = async (): Promise<ApplyPatchDetails> => {
    let changedPath: string | undefined;
    for (let redone = 0; ; redone++) {
      const plan = await planAgain(ctx, sections, resolved, signal, changedPath);
      const files = await filesOf(plan);
      const changed = files.some((file) => file.changed);
      const audit = ctx.call.audit;
      if (options.dryRun || !changed) {
        if (audit.enabled) {
          const why = options.dryRun ? "dry run: nothing written" : "every section was already applied";
          audit.record({
            kind: "side-effect",
            source: options.source ?? "patch",
            method: "none",
            files: [],
            note: why,
          });
        }
        return { dryRun: options.dryRun === true, changed, files, redone };
      }
      try {
        const written = await commit(ctx, plan, signal, options);
        await addFeedback(ctx, plan, files, written, options);
        return { dryRun: false, changed, files, redone };
      } catch (error) {
        if (!(error instanceof PatchChangedError)) throw error;
        if (redone + 1 >= MAX_COMMIT_ATTEMPTS) throw new ToolError("stale_read", busyMessage(error.path));
        changedPath = error.path;
      }
    }
  };
  try {
    return await withMutations(ctx, reals, run, signal);
  } catch (error) {
    throw toToolError(error, firstDisplay(resolved));
  }
}

/**
 * Plans the patch: the first time against what the model read (stale reads refused); after
 * another writer's change to `changedPath` at the commit, on the fresh content, where a patch
 * that no longer applies is a `stale_read` carrying the reason.
 */
async function planAgain(
  ctx: ExtensionContext,
  sections: readonly PlannedChange[],
  resolved: ReadonlyMap<string, ResolvedPath>,
  signal: AbortSignal | undefined,
  changedPath: string | undefined,
): Promise<PatchPlan> {
  if (changedPath === undefined) return planPatch(ctx, sections, resolved, signal);
  try {
    return await planPatch(ctx, sections, resolved, signal, { checkStale: false });
  } catch (error) {
    if (!isToolError(error) || error.code === "aborted") throw error;
    throw new ToolError("stale_read", changedWhileSavingMessage(changedPath, error.message), {
      cause: error,
      details: { path: changedPath, reason: error.code },
    });
  }
}

/** What each section did, with the diff of its file. */
async function filesOf(plan: PatchPlan): Promise<PatchFileResult[]> {
  // The diff library is loaded by the first patch, not by every process that creates the tools.
  const { buildEditDiff } = await import("../edit/diff.js");
  return plan.sections.map((planned): PatchFileResult => {
    const diff = planned.before
      ? buildEditDiff(planned.movedTo ?? planned.path, planned.before.lf, planned.before.replacements)
      : undefined;
    return {
      path: planned.path,
      action: planned.section.kind,
      ...(planned.movedTo !== undefined && planned.movedTo !== planned.path
        ? { movedTo: planned.movedTo }
        : {}),
      changed: planned.changed,
      diff: diff?.patch ?? "",
      added: diff?.added ?? planned.addedLines ?? 0,
      removed: diff?.removed ?? 0,
      hunks: planned.hunks,
    };
  });
}

/**
 * The syntax check and diagnostics of every file written (as edit and write run them: a syntax
 * warning only for a file that parsed before), on the section that wrote it.
 */
async function addFeedback(
  ctx: ExtensionContext,
  plan: PatchPlan,
  files: PatchFileResult[],
  written: readonly CommittedFile[],
  options: ApplyPatchOptions,
): Promise<void> {
  for (const file of written) {
    if (file.after === null) continue;
    const display = plan.disk.get(file.path)?.target.display ?? file.path;
    const report = await reportAfterChange(ctx, {
      toolCallId: options.toolCallId,
      toolName: options.toolName ?? "apply_patch",
      path: file.path,
      display,
      before: file.before,
      after: file.after,
      signal: options.signal,
    });
    // The section that left the file so: the last one naming it (or moving to it).
    const section = [...files].reverse().find((result) => (result.movedTo ?? result.path) === display);
    if (!section) continue;
    section.feedback = report.feedback;
    if (report.text) section.feedbackText = report.text;
  }
}

async function commit(
  ctx: ExtensionContext,
  plan: PatchPlan,
  signal: AbortSignal | undefined,
  options: ApplyPatchOptions,
): Promise<CommittedFile[]> {
  try {
    const written = await commitPatch(ctx, plan, signal);
    const audit = ctx.call.audit;
    if (!audit.enabled) return written;
    const files = written.map((file): AuditFileChange => {
      const change: AuditFileChange = {
        path: file.path,
        change: file.before === null ? "created" : file.after === null ? "removed" : "changed",
      };
      if (file.before !== null) {
        change.bytesBefore = file.before.length;
        change.sha256Before = file.sha256Before ?? sha256Hex(file.before);
      }
      if (file.after !== null) {
        change.bytesAfter = file.after.length;
        change.sha256After = file.sha256After ?? sha256Hex(file.after);
      }
      return change;
    });
    audit.record({ kind: "side-effect", source: options.source ?? "patch", method: "exact", files });
    return written;
  } catch (error) {
    if (!(error instanceof PatchCommitError)) throw error;
    const reason = error.cause instanceof Error ? error.cause.message : String(error.cause);
    throw new ToolError("execution_failed", commitFailedMessage(error.path, reason, error.restored), {
      cause: error.cause,
      details: { path: error.path, restored: error.restored },
    });
  }
}

/** The sections with relative paths (and move targets) resolved against `baseDir`. */
function rebase(ctx: ExtensionContext, sections: readonly PlannedChange[], baseDir: string): PlannedChange[] {
  const syntax = pathSyntax(ctx.operations.platform);
  const from = (path: string) => (syntax.isAbsolute(path) ? path : syntax.resolve(baseDir, path));
  return sections.map((section) =>
    section.kind === "update" && section.moveTo !== undefined
      ? { ...section, path: from(section.path), moveTo: from(section.moveTo) }
      : { ...section, path: from(section.path) },
  );
}

/** Runs `fn` inside the mutation queue of every path, taken in sorted order. */
function withMutations<T>(
  ctx: ExtensionContext,
  reals: readonly string[],
  fn: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  const [first, ...rest] = reals;
  if (first === undefined) return fn();
  return ctx.mutations.withFileMutation(first, () => withMutations(ctx, rest, fn, signal), {
    signal,
    real: true,
  });
}

function firstDisplay(resolved: ReadonlyMap<string, ResolvedPath>): string {
  return [...resolved.values()][0]?.display ?? "the patch";
}
