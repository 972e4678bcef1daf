/**
 * The result text of an applied patch: one line per file (A added, M updated, D deleted, R moved),
 * the hunks that were already applied, and the diff when a fuzzy match replaced lines that
 * differ from the patch (or on a dry run), made safe like read output (secrets hidden) and cut to
 * the shared output limits; then what the syntax check and diagnostics found in the files written.
 */
import { redactionSourceOf } from "@tackle/session";
import { formatBytes } from "../defaults.js";
import { sanitizeDiffLines } from "../text/untrusted.js";
import { truncateHead } from "../truncate.js";
import type { ApplyPatchDetails, PatchFileResult } from "./apply.js";

/** Limits of the diff shown in a result. */
export interface PatchSummaryLimits {
  maxLines: number;
  maxBytes: number;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function fileLine(file: PatchFileResult): string {
  if (file.action === "add") return `A ${file.path} (${plural(file.added, "line")})`;
  if (file.action === "delete") return `D ${file.path}`;
  const applied = file.hunks.filter((hunk) => hunk.status === "applied");
  const where = applied.map((hunk) => `${hunk.line}${hunk.matcher === "exact" ? "" : ` ${hunk.matcher}`}`);
  const hunks =
    applied.length > 0
      ? `, ${plural(applied.length, "hunk")} at line${applied.length === 1 ? "" : "s"} ${where.join(", ")}`
      : "";
  const name = file.movedTo ? `R ${file.path} -> ${file.movedTo}` : `M ${file.path}`;
  return `${name} (+${file.added} -${file.removed}${hunks})`;
}

/** The model-facing text of a patch result. */
export function formatPatchSummary(details: ApplyPatchDetails, limits: PatchSummaryLimits): string {
  const notes = details.files.flatMap((file) => file.hunks.flatMap((hunk) => (hunk.note ? [hunk.note] : [])));
  if (!details.changed) {
    return ["No file changed: the patch is already applied.", ...notes].join("\n");
  }
  const changed = details.files.filter((file) => file.changed);
  const head = details.dryRun
    ? `Dry run: the patch would change ${plural(changed.length, "file")}. Nothing was written.`
    : `Applied the patch: ${plural(changed.length, "file")} changed.`;
  const lines = [head, ...changed.map(fileLine), ...notes];
  if (details.redone > 0) lines.push(REDONE_NOTE);
  const fuzzy = details.files.some((file) => file.hunks.some((hunk) => hunk.matcher?.startsWith("fuzzy")));
  if (fuzzy && !details.dryRun)
    lines.push("Fuzzy matches changed lines that differ from your patch; check the diff below.");
  if (fuzzy || details.dryRun) {
    // Each file's diff is made safe as its own kind of file (a .env's values are hidden).
    const diff = details.files
      .filter((file) => file.diff.trim() !== "")
      .flatMap(
        (file) =>
          sanitizeDiffLines(file.diff.trimEnd().split("\n"), redactionSourceOf(file.movedTo ?? file.path))
            .lines,
      );
    if (diff.length > 0) lines.push(cutDiff(diff, limits));
  }
  const feedback = details.files.flatMap((file) => (file.feedbackText ? [file.feedbackText] : []));
  return feedback.length > 0 ? `${lines.join("\n")}\n\n${feedback.join("\n\n")}` : lines.join("\n");
}

/** Said after the file lines when the patch had to be planned again on another writer's content. */
const REDONE_NOTE =
  "Another writer changed a file while this patch was being saved; your hunks still matched its new content and were applied to it (other lines keep their change).";

function cutDiff(safeLines: readonly string[], { maxLines, maxBytes }: PatchSummaryLimits): string {
  const cut = truncateHead(safeLines.join("\n"), { maxLines, maxBytes });
  if (!cut.truncated) return cut.content;
  return `${cut.content}\n[Diff cut at ${cut.truncatedBy === "lines" ? `${maxLines} lines` : formatBytes(maxBytes)} of ${cut.totalLines} lines; read the changed files to check the rest.]`;
}
