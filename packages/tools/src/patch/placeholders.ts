/**
 * Redaction placeholders in a patch: a `[REDACTED:<kind>]` a model copied from read or grep
 * output into a hunk's kept or removed lines stands for the value hidden at that place, and the
 * same placeholder in its added lines writes that value back, as in edit. A hunk's kept and
 * removed lines with the values put back must occur once in the file, the file's text around each
 * value exactly as sent; otherwise the patch is refused. The values never reach a message.
 */
import { ToolError } from "@tackle/agent-core";
import {
  expandRedactedPlaceholders,
  type PlaceholderRefusal,
  REDACTED_PLACEHOLDER,
  type RevealedSecret,
  redactionSourceOf,
} from "@tackle/session";
import { hunkLabel } from "./messages.js";
import { type HunkLine, newLinesOf, oldLinesOf, type PatchHunk } from "./parse.js";

/** The hunks with every placeholder replaced by its hidden value, and the values put in. */
export interface ExpandedHunks {
  hunks: PatchHunk[];
  revealed: RevealedSecret[];
}

/** Whether `text` holds a placeholder that the file does not hold as text. */
function hasPlaceholder(text: string, fileText: string): boolean {
  for (const match of text.matchAll(REDACTED_PLACEHOLDER)) if (!fileText.includes(match[0])) return true;
  return false;
}

/**
 * The hunks of an Update File section on `lf` (the file's LF view), placeholders expanded.
 * Throws a `redacted_text` `ToolError` naming the hunk when a placeholder stands for no unique
 * hidden value. Hunks without placeholders come back as they are.
 */
export function expandHunkPlaceholders(
  lf: string,
  hunks: readonly PatchHunk[],
  path: string,
  shell: string | undefined,
): ExpandedHunks {
  const revealed: RevealedSecret[] = [];
  const source = redactionSourceOf(path);
  const expanded = hunks.map((hunk, h) => {
    const oldText = oldLinesOf(hunk).join("\n");
    const newText = newLinesOf(hunk).join("\n");
    if (!hasPlaceholder(oldText, lf) && !hasPlaceholder(newText, lf)) return hunk;
    const result = expandRedactedPlaceholders(lf, oldText, newText, source);
    if (!result.ok) {
      const label = hunkLabel(h, hunk.patchLine, path);
      throw new ToolError(
        "redacted_text",
        refusalMessage(label, result.refusal, result.placeholders, shell),
        {
          details: {
            path,
            hunk: h,
            patchLine: hunk.patchLine,
            reason: result.refusal,
            placeholders: result.placeholders,
          },
        },
      );
    }
    revealed.push(...result.revealed);
    return { ...hunk, lines: relined(hunk.lines, result.oldText.split("\n"), result.newText.split("\n")) };
  });
  return { hunks: expanded, revealed };
}

/**
 * The hunk's lines with kept and removed lines taken from `oldLines`, kept and added ones from
 * `newLines` (a hidden value never spans a line break, so the counts are the hunk's own). A kept
 * line whose two sides differ (a placeholder in it that the added side writes otherwise) becomes
 * a removed and an added line.
 */
function relined(
  lines: readonly HunkLine[],
  oldLines: readonly string[],
  newLines: readonly string[],
): HunkLine[] {
  let o = 0;
  let n = 0;
  const out: HunkLine[] = [];
  for (const line of lines) {
    if (line.op === "-") out.push({ op: "-", text: oldLines[o++] as string });
    else if (line.op === "+") out.push({ op: "+", text: newLines[n++] as string });
    else {
      const before = oldLines[o++] as string;
      const after = newLines[n++] as string;
      if (before === after) out.push({ op: " ", text: before });
      else out.push({ op: "-", text: before }, { op: "+", text: after });
    }
  }
  return out;
}

/** What the model is told when a hunk's placeholders cannot be expanded. */
function refusalMessage(
  label: string,
  refusal: PlaceholderRefusal,
  placeholders: readonly string[],
  shell: string | undefined,
): string {
  const list = placeholders.join(", ");
  const orShell = shell ? `, or change that line with ${shell}` : "";
  switch (refusal) {
    case "not_found":
      return `${label} contains ${list}: a secret that read or grep hid. With the hidden value put back, its ' ' and '-' lines are not in the file: around a placeholder they must match it character for character. Nothing was changed. Copy the lines again from a fresh read of the file, placeholders included, then send the patch again${orShell}.`;
    case "ambiguous":
      return `${label} contains ${list}: with the hidden values put back, its ' ' and '-' lines match more than one place in the file. Nothing was changed. Add kept lines around the change so the hunk matches once, then send the patch again${orShell}.`;
    case "unmatched_in_new":
      return `${label} adds ${list}, which stands for no placeholder of the same kind in its ' ' or '-' lines: a placeholder in a '+' line only writes back the secret its twin in a removed or kept line matched. Nothing was changed. Put the line that holds the secret, with its placeholder, in the hunk as a '-' line too, or leave the placeholder out${orShell}.`;
  }
}
