/**
 * The V4A patch format (`*** Begin Patch` ... `*** End Patch`) read into sections, as Codex
 * reads it, with a few readings Codex lacks where a model's intent is unmistakable (stacked `@@`
 * anchors, a unified-diff `@@ -1,3 +1,4 @@` header, a bare blank line inside an added file, a
 * rename without hunks). Nothing here touches a file: `locate.ts` finds the hunks, `apply.ts`
 * writes.
 */
import { ToolError } from "@tackle/agent-core";
import { unwrapHeredoc } from "./heredoc.js";
import {
  badAddLineMessage,
  badHunkLineMessage,
  badSectionHeaderMessage,
  emptyHunkMessage,
  emptyPatchMessage,
  emptyUpdateMessage,
  missingBeginMessage,
  missingEndMessage,
} from "./messages.js";

export const BEGIN_PATCH = "*** Begin Patch";
export const END_PATCH = "*** End Patch";
export const ADD_FILE = "*** Add File: ";
export const DELETE_FILE = "*** Delete File: ";
export const UPDATE_FILE = "*** Update File: ";
export const MOVE_TO = "*** Move to: ";
export const END_OF_FILE = "*** End of File";

/** One line of a hunk: kept (`" "`), removed (`"-"`) or added (`"+"`). */
export interface HunkLine {
  op: " " | "-" | "+";
  text: string;
}

/** One `@@` hunk of an Update File section. */
export interface PatchHunk {
  /** The `@@ <text>` lines before it, outermost first (a class, then a method): each narrows where it applies. */
  anchors: string[];
  lines: HunkLine[];
  /** `*** End of File` followed it: its lines must end the file. */
  endOfFile: boolean;
  /** 1-based line in the patch where the hunk starts (its first `@@` or first line). */
  patchLine: number;
}

/** A file section of a patch. `patchLine` is the 1-based line of its header in the patch. */
export type PatchSection =
  | { kind: "add"; path: string; lines: string[]; patchLine: number }
  | { kind: "delete"; path: string; patchLine: number }
  | { kind: "update"; path: string; moveTo?: string; hunks: PatchHunk[]; patchLine: number };

/** A parsed patch: its sections in the order given. */
export interface ParsedPatch {
  sections: PatchSection[];
}

/** The lines a hunk expects in the file (kept and removed). */
export const oldLinesOf = (hunk: PatchHunk): string[] =>
  hunk.lines.filter((line) => line.op !== "+").map((line) => line.text);

/** The lines a hunk leaves in the file (kept and added). */
export const newLinesOf = (hunk: PatchHunk): string[] =>
  hunk.lines.filter((line) => line.op !== "-").map((line) => line.text);

/** A unified-diff hunk header (`@@ -12,7 +12,8 @@ optional text`): its text after the second `@@` is the anchor. */
const UNIFIED_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$/;

function invalid(message: string, line?: number): ToolError {
  return new ToolError("invalid_arguments", message, {
    details: line === undefined ? {} : { patchLine: line },
  });
}

/** Options of {@link parsePatch}. */
export interface ParsePatchOptions {
  /**
   * The number messages and `patchLine` give the first line of the input (default 1). A caller
   * that wraps text the model sent in lines of its own (OpenAI's `update_file` diff inside a
   * `*** Begin Patch` and a header) starts below 1, so numbers count the model's own lines.
   */
  firstLine?: number;
}

/**
 * Reads a V4A patch. Accepts CRLF, surrounding blank lines, padded markers and a heredoc wrapper
 * (`<<'EOF'` ... `EOF`, or the whole `apply_patch <<'EOF'` command). Throws a `ToolError`
 * (`invalid_arguments`) naming the patch line and the fix; a patch without `*** End Patch` is
 * refused, since a cut-off patch must not write half a file.
 */
export function parsePatch(input: string, options: ParsePatchOptions = {}): ParsedPatch {
  const first = options.firstLine ?? 1;
  const lines = unwrapHeredoc(input.replace(/\r\n/g, "\n").trim()).split("\n");
  // Line numbers in messages count from the first line of what was sent after trimming.
  if (lines[0]?.trim() !== BEGIN_PATCH) throw invalid(missingBeginMessage(lines[0] ?? ""), 1);
  if (lines.length < 2 || lines[lines.length - 1]?.trim() !== END_PATCH) {
    throw invalid(missingEndMessage(lines.length), lines.length);
  }
  const body = lines.slice(1, -1);
  const sections: PatchSection[] = [];
  let i = 0;
  // body[index] is line index + 1 of the input.
  const lineNo = (index: number) => index + 1 + first;
  while (i < body.length) {
    const raw = body[i] as string;
    const header = raw.trim();
    if (header === "") {
      i++;
      continue;
    }
    const start = i;
    if (header.startsWith(ADD_FILE)) {
      const path = header.slice(ADD_FILE.length).trim();
      const content: string[] = [];
      i++;
      while (i < body.length && !isSectionStart(body[i] as string)) {
        const line = body[i] as string;
        if (line.startsWith("+")) content.push(line.slice(1));
        else if (line === "" && hasMoreAddLines(body, i)) content.push("");
        else if (line.trim() === "") break;
        else throw invalid(badAddLineMessage(lineNo(i), line, path), lineNo(i));
        i++;
      }
      sections.push({ kind: "add", path, lines: content, patchLine: lineNo(start) });
      continue;
    }
    if (header.startsWith(DELETE_FILE)) {
      sections.push({
        kind: "delete",
        path: header.slice(DELETE_FILE.length).trim(),
        patchLine: lineNo(start),
      });
      i++;
      continue;
    }
    if (header.startsWith(UPDATE_FILE)) {
      const path = header.slice(UPDATE_FILE.length).trim();
      i++;
      let moveTo: string | undefined;
      if (i < body.length && (body[i] as string).trim().startsWith(MOVE_TO)) {
        moveTo = (body[i] as string).trim().slice(MOVE_TO.length).trim();
        i++;
      }
      const read = readHunks(body, i, path, lineNo);
      i = read.next;
      if (read.hunks.length === 0 && moveTo === undefined) {
        throw invalid(emptyUpdateMessage(path, lineNo(start)), lineNo(start));
      }
      sections.push({
        kind: "update",
        path,
        ...(moveTo !== undefined ? { moveTo } : {}),
        hunks: read.hunks,
        patchLine: lineNo(start),
      });
      continue;
    }
    throw invalid(badSectionHeaderMessage(lineNo(i), raw), lineNo(i));
  }
  if (sections.length === 0) throw invalid(emptyPatchMessage());
  return { sections };
}

/** A line that starts the next file section (or is one of the patch markers). */
function isSectionStart(line: string): boolean {
  const trimmed = line.trim();
  return (
    trimmed.startsWith(ADD_FILE) ||
    trimmed.startsWith(DELETE_FILE) ||
    trimmed.startsWith(UPDATE_FILE) ||
    trimmed === END_PATCH ||
    trimmed === BEGIN_PATCH
  );
}

/** Whether a `+` line follows before the next section: a bare blank line is then an empty line of the file. */
function hasMoreAddLines(body: readonly string[], from: number): boolean {
  for (let j = from + 1; j < body.length; j++) {
    const line = body[j] as string;
    if (line.startsWith("+")) return true;
    if (line !== "") return false;
  }
  return false;
}

/** Reads the hunks of an Update File section from `body[from]` up to the next section. */
function readHunks(
  body: readonly string[],
  from: number,
  path: string,
  lineNo: (index: number) => number,
): { hunks: PatchHunk[]; next: number } {
  const hunks: PatchHunk[] = [];
  let current: PatchHunk | undefined;
  let i = from;
  const finish = () => {
    if (!current) return;
    if (current.lines.length === 0)
      throw invalid(emptyHunkMessage(path, current.patchLine), current.patchLine);
    hunks.push(current);
    current = undefined;
  };
  for (; i < body.length; i++) {
    const line = body[i] as string;
    if (isSectionStart(line)) break;
    const trimmed = line.trim();
    if (trimmed === END_OF_FILE) {
      if (!current || current.lines.length === 0) throw invalid(emptyHunkMessage(path, lineNo(i)), lineNo(i));
      current.endOfFile = true;
      finish();
      continue;
    }
    const anchor = anchorOf(line);
    if (anchor !== undefined) {
      // Stacked `@@` lines (class, then method) narrow one hunk; after body lines one starts the next.
      if (current && current.lines.length > 0) finish();
      current ??= { anchors: [], lines: [], endOfFile: false, patchLine: lineNo(i) };
      if (anchor !== "") current.anchors.push(anchor);
      continue;
    }
    const op = line[0];
    if (line === "" || op === " " || op === "-" || op === "+") {
      // Blank lines between hunks separate them (Codex skips them); inside a hunk a blank line is an empty kept line.
      if (line === "" && (!current || current.lines.length === 0)) continue;
      current ??= { anchors: [], lines: [], endOfFile: false, patchLine: lineNo(i) };
      current.lines.push(
        line === "" ? { op: " ", text: "" } : { op: op as HunkLine["op"], text: line.slice(1) },
      );
      continue;
    }
    throw invalid(badHunkLineMessage(lineNo(i), line, path), lineNo(i));
  }
  finish();
  return { hunks, next: i };
}

/** The anchor text of a `@@` line ("" for a bare `@@` or a unified-diff header without text), or undefined. */
function anchorOf(line: string): string | undefined {
  const trimmed = line.trimEnd();
  if (trimmed === "@@") return "";
  const unified = UNIFIED_HEADER.exec(trimmed);
  if (unified) return (unified[1] ?? "").trim();
  if (trimmed.startsWith("@@ ")) return trimmed.slice(3).trim();
  return undefined;
}
