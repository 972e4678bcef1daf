/**
 * Applies a V4A patch on a tool context: parse, check every path, take the mutation queue of
 * every file it touches (in one order, so two patches never wait on each other), plan every
 * section, then write. All or nothing: one section that cannot apply changes no file. The
 * apply_patch tool, the shell tool's `apply_patch <<'EOF'` form and the OpenAI apply_patch
 * handler all come here.
 */

import type { AuditFileChange } from "@tackle/agent-core";
import { ToolError } from "@tackle/agent-core";
import type { ExtensionContext, ResolvedPath } from "@tackle/extensions";
import { pathSyntax, sha256Hex } from "@tackle/session";
import { toToolError } from "../tool-errors.js";
import { commitPatch, PatchCommitError } from "./commit.js";
import type { HunkOutcome } from "./locate.js";
import { commitFailedMessage } from "./messages.js";
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
}

/** What applying a patch reports to hosts. */
export interface ApplyPatchDetails {
  dryRun: boolean;
  /** False when no file changed (every section already applied). */
  changed: boolean;
  files: PatchFileResult[];
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
  const run = async () => {
    const plan = await planPatch(ctx, sections, resolved, signal);
    const { buildEditDiff } = await import("../edit/diff.js");
    const files = plan.sections.map((planned): PatchFileResult => {
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
      return { dryRun: options.dryRun === true, changed, files };
    }
    await commit(ctx, plan, signal, options);
    return { dryRun: false, changed, files };
  };
  try {
    return await withMutations(ctx, reals, run, signal);
  } catch (error) {
    throw toToolError(error, firstDisplay(resolved));
  }
}

async function commit(
  ctx: ExtensionContext,
  plan: PatchPlan,
  signal: AbortSignal | undefined,
  options: ApplyPatchOptions,
): Promise<void> {
  try {
    const written = await commitPatch(ctx, plan, signal);
    const audit = ctx.call.audit;
    if (!audit.enabled) return;
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
