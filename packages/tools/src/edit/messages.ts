/**
 * Everything the edit tool says to the model, in one place. Each message states what happened
 * and the next step.
 */
import { sanitizeLines } from "../text/untrusted.js";
import type { ClosestRegion } from "./closest.js";
import type { AlreadyAppliedEvidence } from "./plan-types.js";

/** Longest line shown in a hint before it is cut. */
export const HINT_LINE_CHARS = 200;
/** Most lines of a closest region shown in a not-found error. */
export const HINT_MAX_LINES = 12;
/** Most places (line numbers, or line:column) listed for an ambiguous match or newText. */
export const AMBIGUOUS_MAX_LINES = 5;

function cut(line: string): string {
  return line.length > HINT_LINE_CHARS ? `${line.slice(0, HINT_LINE_CHARS)}… [line cut]` : line;
}

function lineList(lines: readonly number[]): string {
  const shown = lines.slice(0, AMBIGUOUS_MAX_LINES).join(", ");
  return lines.length > AMBIGUOUS_MAX_LINES ? `${shown}, …` : shown;
}

export function editLabel(index: number): string {
  return `edits[${index}]`;
}

export function noMatchMessage(
  index: number,
  path: string,
  region: ClosestRegion | undefined,
  newTextLines: readonly number[] = [],
): string {
  const head = `${editLabel(index)}.oldText was not found in ${path}, not even with fuzzy matching.`;
  const already =
    newTextLines.length > 0
      ? ` Its newText already occurs at ${newTextLines.length === 1 ? "line" : "lines"} ${lineList(newTextLines)}, but nothing shows this edit put it there, so nothing was changed; if that is the change you wanted, you are done.`
      : "";
  const next = "Copy oldText exactly from the file (read it again if it may have changed), then retry.";
  if (!region) return `${head}${already} No similar region found. ${next}`;
  // File text shown to the model: escapes and control characters removed, secrets redacted.
  const shown = sanitizeLines(region.lines.slice(0, HINT_MAX_LINES)).lines;
  const last = region.startLine + shown.length - 1;
  const numbered = shown
    .map((line, i) => `${String(region.startLine + i).padStart(6)}\t${cut(line)}`)
    .join("\n");
  const more =
    region.lines.length > shown.length ? `\n  … ${region.lines.length - shown.length} more lines` : "";
  const diff = region.firstDifference
    ? `\nFirst difference at line ${region.firstDifference.line}:\n  file:    ${JSON.stringify(cut(sanitizeLines([region.firstDifference.file]).lines[0] as string))}\n  oldText: ${JSON.stringify(cut(region.firstDifference.oldText))}`
    : "\nThese lines match oldText line by line: check where oldText starts and ends (a final newline the file lacks, or text before or after on the same line).";
  const span = last === region.startLine ? `line ${last}` : `lines ${region.startLine}-${last}`;
  return `${head}${already} Closest region, ${span}:\n${numbered}${more}${diff}\n${next}`;
}

/** A place where oldText matched only inside a longer identifier or number. */
export interface InsideTokenPlace {
  line: number;
  /** The whole tokens the match cut into (at its start, its end, or both). */
  tokens: string[];
  /** The file line it is on. */
  text: string;
}

export function insideTokenMessage(
  index: number,
  path: string,
  oldText: string,
  places: readonly InsideTokenPlace[],
  count: number,
): string {
  const shown = places
    .map((place) => {
      const line = sanitizeLines([place.text]).lines[0] as string;
      return `\n  line ${place.line}, inside ${place.tokens.map((token) => JSON.stringify(cut(token))).join(" and ")}: ${cut(line.trim())}`;
    })
    .join("");
  const more = count > places.length ? `\n  … ${count - places.length} more` : "";
  return (
    `${editLabel(index)}.oldText ${JSON.stringify(cut(oldText))} occurs in ${path} only inside longer words or numbers:${shown}${more}\n` +
    "An oldText that starts or ends with a letter, digit or underscore matches whole words and numbers only. " +
    "Nothing was changed. Put the whole token in oldText (with enough of its line to match once), then retry."
  );
}

export function ambiguousSpellingMessage(
  index: number,
  path: string,
  characters: readonly { char: string; spellings: readonly string[] }[],
): string {
  const named = characters
    .map(
      ({ char, spellings }) =>
        `${describeChar(char)} (the file has ${spellings.map(describeChar).join(" and ")} where oldText has it)`,
    )
    .join("; ");
  return (
    `${editLabel(index)}.oldText matched ${path} only after normalising characters, and newText repeats ${named}, ` +
    "so which spelling to write is not clear. Nothing was changed. " +
    "Copy oldText and newText with the file's own characters (read the lines again), then retry."
  );
}

/** A character named unambiguously: itself and its code points (`"“" U+201C`). */
export function describeChar(char: string): string {
  const points = [...char].map(
    (cp) => `U+${(cp.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`,
  );
  return `${JSON.stringify(char)} ${points.join(" ")}`;
}

/** Lines of oldText a placeholder would delete, as listed in a refusal. */
export const PLACEHOLDER_LINES_SHOWN = 3;

export function placeholderMessage(
  index: number,
  path: string,
  elision: { placeholder: string; newTextLine: number; dropped: readonly string[] },
): string {
  const real = elision.dropped.filter((line) => line.trim() !== "");
  const shown = real
    .slice(0, PLACEHOLDER_LINES_SHOWN)
    .map((line) => JSON.stringify(cut(line)))
    .join(", ");
  const more =
    real.length > PLACEHOLDER_LINES_SHOWN ? `, … ${real.length - PLACEHOLDER_LINES_SHOWN} more` : "";
  return (
    `${editLabel(index)}.newText line ${elision.newTextLine} is the placeholder ${JSON.stringify(cut(elision.placeholder))}, ` +
    `where oldText has ${real.length === 1 ? "1 line" : `${real.length} lines`} that newText leaves out (${shown}${more}): ` +
    `written as is, it would delete them from ${path}. Nothing was changed. ` +
    "Write those lines out in newText (or leave the placeholder out to delete them), then retry."
  );
}

export function elisionNote(elision: { placeholder: string; dropped: readonly string[] }): string {
  const count = elision.dropped.length;
  return `${JSON.stringify(cut(elision.placeholder))} stood for ${count === 1 ? "1 line" : `${count} lines`} of oldText, which were kept`;
}

export function ambiguousMessage(
  index: number,
  path: string,
  count: number,
  positions: readonly { line: number; column: number }[],
): string {
  // Columns too: "lines 1, 1, 1" does not tell three matches on one line apart.
  const shown = positions.slice(0, AMBIGUOUS_MAX_LINES).map((at) => `${at.line}:${at.column}`);
  const more = positions.length > AMBIGUOUS_MAX_LINES ? ", …" : "";
  return (
    `${editLabel(index)}.oldText matches ${count} places in ${path}, at ${shown.join(", ")}${more} (line:column). ` +
    `Add surrounding lines to oldText so it matches once, or set replaceAll: true to change all ${count}.`
  );
}

export function overlapMessage(first: number, second: number, path: string, line: number): string {
  return (
    `${editLabel(first)} and ${editLabel(second)} overlap in ${path} (line ${line}). ` +
    "Every edit matches the original file, so merge them into one edit or make their oldText not overlap."
  );
}

export function emptyOldTextMessage(index: number): string {
  return `${editLabel(index)}.oldText is empty. Give the exact text to replace; to create or overwrite a whole file use write.`;
}

export function identicalTextMessage(index: number): string {
  return `${editLabel(index)}: oldText and newText are identical, so there is nothing to change. Put the new text in newText.`;
}

export function alreadyAppliedNote(
  index: number,
  evidence: AlreadyAppliedEvidence,
  lines: readonly number[],
): string {
  const where = lines.length > 0 ? ` (line ${lines[0]})` : "";
  const why =
    evidence === "this-session"
      ? `an earlier edit call of this session made this change${where} and oldText is gone`
      : evidence === "context"
        ? `its newText is already at line ${lines[0]}, between the unchanged lines it shares with oldText, and oldText is not found`
        : `every match of oldText lies inside its newText${where}, so applying it again would repeat the change`;
  return `${editLabel(index)} is already applied: ${why}. Nothing was changed for it; if that is wrong, read the file and retry with its current text.`;
}

/** `shell` is the shell tool the model has (see `shellToolOf`); without one the user is asked. */
export function undecodableMessage(path: string, encoding: string, shell: string | undefined): string {
  return (
    `${path} does not round-trip as ${encoding} (it holds bytes that are not valid ${encoding}), ` +
    "so editing it would change bytes you did not touch. Nothing was written. " +
    (shell ? `Use ${shell} for this file.` : "Leave it as it is, or ask the user to change it.")
  );
}

export function unencodableMessage(path: string, encoding: string): string {
  return (
    `The new content of ${path} holds characters that ${encoding} cannot store. ` +
    `Nothing was written. Use only characters ${encoding} can represent in newText.`
  );
}
