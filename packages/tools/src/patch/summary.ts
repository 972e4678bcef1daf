/**
 * The result text of an applied patch: one line per file (A added, M updated, D deleted, R moved),
 * the hunks that were already applied, and the diff when a fuzzy match replaced lines that
 * differ from the patch (or on a dry run), cut to the shared output limits.
 */
import { formatBytes } from "../defaults.js";
import { sanitizeLines } from "../text/untrusted.js";
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
  const fuzzy = details.files.some((file) => file.hunks.some((hunk) => hunk.matcher?.startsWith("fuzzy")));
  if (fuzzy && !details.dryRun)
    lines.push("Fuzzy matches changed lines that differ from your patch; check the diff below.");
  if (fuzzy || details.dryRun) {
    const diff = details.files
      .map((file) => file.diff.trimEnd())
      .filter((patch) => patch !== "")
      .join("\n");
    if (diff !== "") lines.push(cutDiff(diff, limits));
  }
  return lines.join("\n");
}

function cutDiff(diff: string, { maxLines, maxBytes }: PatchSummaryLimits): string {
  const safe = sanitizeLines(diff.split("\n"));
  const cut = truncateHead(safe.lines.join("\n"), { maxLines, maxBytes });
  if (!cut.truncated) return cut.content;
  return `${cut.content}\n[Diff cut at ${cut.truncatedBy === "lines" ? `${maxLines} lines` : formatBytes(maxBytes)} of ${cut.totalLines} lines; read the changed files to check the rest.]`;
}
