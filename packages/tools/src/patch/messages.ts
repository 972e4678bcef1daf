/**
 * Everything the apply_patch tool says to the model. Each message names the file, hunk and patch
 * line concerned, says that nothing was changed, and says what to send instead.
 */
import type { ClosestRegion } from "../edit/closest.js";
import { AMBIGUOUS_MAX_LINES, HINT_LINE_CHARS, HINT_MAX_LINES } from "../edit/messages.js";
import { sanitizeLines } from "../text/untrusted.js";
import { MAX_COMMIT_ATTEMPTS } from "../tools/write-if-unchanged.js";

const NOTHING = "Nothing was changed.";
const SHAPE =
  "Send '*** Begin Patch', then sections ('*** Add File: <path>' with '+' lines, '*** Delete File: <path>', '*** Update File: <path>' with '@@' hunks), then '*** End Patch'.";

function cut(line: string): string {
  return line.length > HINT_LINE_CHARS ? `${line.slice(0, HINT_LINE_CHARS)}… [line cut]` : line;
}

function quoted(line: string): string {
  return JSON.stringify(cut(line));
}

function lineList(lines: readonly number[]): string {
  const shown = lines.slice(0, AMBIGUOUS_MAX_LINES).join(", ");
  return lines.length > AMBIGUOUS_MAX_LINES ? `${shown}, …` : shown;
}

/**
 * " (patch line 14)", or "" for a line the model did not write (the header Tackle puts before an
 * OpenAI operation's diff has line 0).
 */
function at(patchLine: number): string {
  return patchLine >= 1 ? ` (patch line ${patchLine})` : "";
}

/** "hunk 2 (patch line 14) of src/a.ts". */
export function hunkLabel(hunk: number, patchLine: number, path: string): string {
  return `hunk ${hunk + 1}${at(patchLine)} of ${path}`;
}

export function missingBeginMessage(first: string): string {
  return `The patch must start with the line '*** Begin Patch'; its first line is ${quoted(first)}. ${NOTHING} ${SHAPE}`;
}

export function missingEndMessage(lines: number): string {
  return `The patch does not end with the line '*** End Patch' (after ${lines} lines), so it may have been cut off. ${NOTHING} Send the whole patch again, ending with '*** End Patch'.`;
}

export function emptyPatchMessage(): string {
  return `The patch holds no file sections. ${NOTHING} ${SHAPE}`;
}

export function badSectionHeaderMessage(line: number, text: string): string {
  return `Patch line ${line} (${quoted(text)}) is not a section header. ${NOTHING} Sections start with '*** Add File: <path>', '*** Update File: <path>' or '*** Delete File: <path>'.`;
}

export function badAddLineMessage(line: number, text: string, path: string): string {
  return `Patch line ${line} (${quoted(text)}) in '*** Add File: ${path}' does not start with '+'. ${NOTHING} Every line of a new file starts with '+' (an empty line is '+' alone).`;
}

export function badHunkLineMessage(line: number, text: string, path: string): string {
  return `Patch line ${line} (${quoted(text)}) in '*** Update File: ${path}' starts with none of ' ', '-', '+' or '@@'. ${NOTHING} In a hunk, kept lines start with a space, removed lines with '-', added lines with '+'; a new hunk starts with '@@'.`;
}

export function emptyHunkMessage(path: string, line: number): string {
  return `The hunk at patch line ${line} of '*** Update File: ${path}' has no lines. ${NOTHING} Put the kept (' '), removed ('-') and added ('+') lines after its '@@' line.`;
}

export function emptyUpdateMessage(path: string, line: number): string {
  return `'*** Update File: ${path}'${at(line)} has no hunks. ${NOTHING} Add '@@' hunks with the lines to change, or '*** Move to: <path>' to rename it.`;
}

export function anchorNotFoundMessage(label: string, anchor: string, afterLine: number): string {
  const where = afterLine > 1 ? ` after line ${afterLine - 1}` : "";
  return `${label}: its '@@ ${cut(anchor)}' line was not found${where}. ${NOTHING} Use a line copied from the file (a function or class line above the change) after '@@', or a bare '@@'; read the file again if it may have changed.`;
}

export function noMatchMessage(label: string, region: ClosestRegion | undefined, afterLine: number): string {
  const where =
    afterLine > 1 ? ` after line ${afterLine - 1} (where the previous hunk or '@@' line left off)` : "";
  const head = `${label}: its context and '-' lines were not found${where}, not even with fuzzy matching. ${NOTHING}`;
  const next =
    "Copy the ' ' and '-' lines exactly from the file (read it again if it may have changed), keep hunks in file order, and send the patch again.";
  if (!region) return `${head} No similar lines found. ${next}`;
  const shown = sanitizeLines(region.lines.slice(0, HINT_MAX_LINES)).lines;
  const last = region.startLine + shown.length - 1;
  const numbered = shown
    .map((line, i) => `${String(region.startLine + i).padStart(6)}\t${cut(line)}`)
    .join("\n");
  const span = last === region.startLine ? `line ${last}` : `lines ${region.startLine}-${last}`;
  const diff = region.firstDifference
    ? `\nFirst difference at line ${region.firstDifference.line}:\n  file:  ${quoted(sanitizeLines([region.firstDifference.file]).lines[0] as string)}\n  patch: ${quoted(region.firstDifference.oldText)}`
    : "";
  return `${head} Closest lines, ${span}:\n${numbered}${diff}\n${next}`;
}

export function ambiguousMessage(label: string, lines: readonly number[]): string {
  return `${label}: its context and '-' lines match ${lines.length} places (lines ${lineList(lines)}). ${NOTHING} Add a '@@ <line>' naming the function or class the change is in, or more unchanged context lines, so the hunk matches once.`;
}

export function notAtEndMessage(label: string, line: number): string {
  return `${label} is marked '*** End of File', but its lines are at line ${line}, not at the end of the file. ${NOTHING} Drop '*** End of File', or use the file's last lines.`;
}

export function overlapMessage(first: string, second: string, line: number): string {
  return `${first} and ${second} change the same lines (line ${line}). ${NOTHING} Merge them into one hunk.`;
}

export function addExistsMessage(path: string, line: number): string {
  return `'*** Add File: ${path}'${at(line)}: the file already exists with other content. ${NOTHING} Change it with '*** Update File: ${path}' hunks, or replace it with '*** Delete File: ${path}' followed by '*** Add File: ${path}'.`;
}

export function moveExistsMessage(from: string, to: string, line: number): string {
  return `'*** Move to: ${to}'${at(line)} for ${from}: ${to} already exists. ${NOTHING} Move it to a path that does not exist, or delete ${to} first in the same patch.`;
}

export function missingFileMessage(
  kind: "update" | "delete" | "insert",
  path: string,
  line: number,
  hint: string,
): string {
  if (kind === "insert") {
    return `No such file: ${path}.${hint} ${NOTHING} Create it first, or send the path of an existing file.`;
  }
  const fix =
    kind === "update"
      ? `Use '*** Add File: ${path}' to create it, or the path of an existing file.`
      : "Send the path of an existing file.";
  return `'*** ${kind === "update" ? "Update" : "Delete"} File: ${path}'${at(line)}: no such file.${hint} ${NOTHING} ${fix}`;
}

export function directoryMessage(path: string): string {
  return `${path} is a directory; patch sections name files. ${NOTHING} Send the path of a file.`;
}

export function changedWhileSavingMessage(path: string, why: string): string {
  return `${path} was changed by another writer while this patch was being saved, and the patch no longer applies to its new content. ${NOTHING} ${why} Read the file again, then send the patch again.`;
}

export function busyMessage(path: string): string {
  return `${path} kept changing while this patch was being saved (another writer wrote it ${MAX_COMMIT_ATTEMPTS} times in a row). ${NOTHING} Read it again, then send the patch again.`;
}

export function commitFailedMessage(path: string, reason: string, restored: boolean): string {
  return restored
    ? `Writing ${path} failed (${reason}). The files already written were restored, so nothing was changed. Fix the cause and send the patch again.`
    : `Writing ${path} failed (${reason}), and restoring the files written before it failed too: check them with read before sending the patch again.`;
}

export function alreadyAppliedNote(label: string, line: number): string {
  return `${label} is already applied: its '+' lines are at line ${line} and its '-' lines are gone. Nothing was changed for it.`;
}
