/**
 * The edit tool's result text: which edits landed where and by which matcher, notes for edits
 * that were already applied, and the diff when the model should look at it (dry runs and fuzzy
 * matches), cut to the shared output limits.
 */

import { type RedactionSource, redactionSourceOf } from "@tackle/session";
import { formatBytes } from "../defaults.js";
import { sanitizeDiffLines, sanitizeNotice } from "../text/untrusted.js";
import { truncateHead } from "../truncate.js";
import type { EditDiff } from "./diff.js";
import { alreadyAppliedNote, editLabel, elisionNote } from "./messages.js";
import type { EditOutcome } from "./plan-types.js";
import type { Reading } from "./readings.js";

/** Inputs of {@link formatEditSummary}. */
export interface EditSummaryInput {
  path: string;
  outcomes: readonly EditOutcome[];
  diff: EditDiff;
  dryRun: boolean;
  changed: boolean;
  maxLines: number;
  maxBytes: number;
  /** The model has bash (the notice then says how to see or change such lines with it). */
  bash: boolean;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** How each reading other than "as sent" is named in the result. */
const READING_NOTES: Record<Reading, string> = {
  unescaped: "oldText and newText read with one layer of JSON escapes undone: \\n as a line break",
  sequential: "matched in the file as the edits before it left it",
};

function describeOutcome(outcome: EditOutcome): string {
  const where =
    outcome.occurrences === 1
      ? `line ${outcome.lines[0]}`
      : `${outcome.occurrences} places (lines ${outcome.lines.slice(0, 5).join(", ")}${outcome.lines.length > 5 ? ", …" : ""})`;
  const kept = (outcome.elisions ?? []).map((elision) => `; ${elisionNote(elision)}`).join("");
  const reading = outcome.reading ? ` (${READING_NOTES[outcome.reading]})` : "";
  return `${editLabel(outcome.index)}: ${outcome.matcher}${reading}, ${where}${kept}`;
}

/** Builds the model-facing text of an edit result. */
export function formatEditSummary(input: EditSummaryInput): string {
  const applied = input.outcomes.filter((outcome) => outcome.status === "applied");
  const skipped = input.outcomes.filter((outcome) => outcome.status === "already_applied");
  const notes = skipped.map((outcome) =>
    alreadyAppliedNote(outcome.index, outcome.evidence ?? "old-inside-new", outcome.lines),
  );
  if (!input.changed) {
    return [`No change to ${input.path}: every edit is already applied.`, ...notes].join("\n");
  }
  const size = `+${input.diff.added} -${input.diff.removed} lines`;
  const head = input.dryRun
    ? `Dry run: ${plural(applied.length, "edit")} would change ${input.path} (${size}). Nothing was written.`
    : `Edited ${input.path}: ${plural(applied.length, "edit")} applied (${size}).`;
  const inOrder = applied.some((outcome) => outcome.reading === "sequential")
    ? [
        "A later oldText matches only the file as the earlier edits leave it, so the edits were applied in order.",
      ]
    : [];
  const lines = [head, ...inOrder, ...applied.map(describeOutcome), ...notes];
  const fuzzy = applied.some((outcome) => outcome.matcher !== "exact");
  if (fuzzy && !input.dryRun) {
    lines.push("Fuzzy matches replaced text that differs from your oldText; check the diff below.");
  }
  // Another reading than the one sent is shown too: the model should see what it led to.
  const reread = applied.some((outcome) => outcome.reading !== undefined);
  if (input.dryRun || fuzzy || reread)
    lines.push(
      cutDiff(input.diff.patch, redactionSourceOf(input.path), input.maxLines, input.maxBytes, input.bash),
    );
  return lines.join("\n");
}

/** The diff the model sees: file text, so made safe like read output, then cut. */
function cutDiff(
  patch: string,
  source: RedactionSource,
  maxLines: number,
  maxBytes: number,
  bash: boolean,
): string {
  const safe = sanitizeDiffLines(patch.trimEnd().split("\n"), source);
  const notice = sanitizeNotice(safe, bash ? "bash with cat -v on the file shows them" : undefined);
  const cut = truncateHead(safe.lines.join("\n"), { maxLines, maxBytes });
  const shown = notice ? `${cut.content}\n[${notice}]` : cut.content;
  if (!cut.truncated) return shown;
  return (
    `${shown}\n[Diff cut at ${cut.truncatedBy === "lines" ? `${maxLines} lines` : formatBytes(maxBytes)} ` +
    `of ${cut.totalLines} lines; read the changed lines of the file to check the rest.]`
  );
}
