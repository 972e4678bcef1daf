/**
 * A parsed patch turned into the bytes each file will hold, without writing anything: every
 * path checked against the workspace policy, every file read once, checked against what the
 * model read (stale-read check), decoded the way edit decodes it, and every hunk placed. A
 * section reads the file as the sections before it left it, so Delete then Add of one path works.
 */
import { isToolError, ToolError } from "@tackle/agent-core";
import type { ExtensionContext, ResolvedPath } from "@tackle/extensions";
import { isOperationError } from "@tackle/operations";
import {
  assertNotStale,
  explainMissingPath,
  hideRevealedInError,
  type RevealedSecret,
  recheckWriteTarget,
} from "@tackle/session";
import { createEditDocument, originalSpans, spliceSpans } from "../edit/document.js";
import { encodeEditedFile } from "../edit/edited-bytes.js";
import { undecodableMessage, unencodableMessage } from "../edit/messages.js";
import { decodeText, encodeText, encodingLabel, hasLoneSurrogate } from "../text/encoding.js";
import { unknownPlaceholders } from "../text/untrusted.js";
import { specialFileError } from "../tool-errors.js";
import { shellToolOf } from "../tool-names.js";
import { type HunkOutcome, type HunkReplacement, type LocatedHunks, locateHunks } from "./locate.js";
import { addExistsMessage, directoryMessage, missingFileMessage, moveExistsMessage } from "./messages.js";
import { newLinesOf, type PatchSection } from "./parse.js";
import { expandHunkPlaceholders } from "./placeholders.js";

/**
 * Lines inserted after a line number (0: at the top), the text editor's `insert`: planned like an
 * update, so it shares every check, the commit and the audit.
 */
export interface LineInsert {
  kind: "insert";
  path: string;
  afterLine: number;
  /** The inserted text, LF line breaks, without a final line break. */
  text: string;
  patchLine: number;
}

/** What {@link planPatch} plans: the sections of a patch, or a line insertion. */
export type PlannedChange = PatchSection | LineInsert;

/** One file as read from the environment when the patch planning started. */
export interface FileOnDisk {
  target: ResolvedPath;
  /** null when it did not exist. */
  bytes: Uint8Array | null;
  /** sha256 the stale check computed (the file was read whole before), for the audit record. */
  sha256?: string | undefined;
}

/** What one section does, planned. */
export interface PlannedSection {
  section: PlannedChange;
  /** The file the section names (its source for a move). */
  path: string;
  /** Set for a move: where the content goes. */
  movedTo?: string;
  /** LF view of the file before and the replacements, for the diff (updates and moves). */
  before?: { lf: string; replacements: HunkReplacement[] };
  /** Lines of an added file. */
  addedLines?: number;
  hunks: HunkOutcome[];
  /** False when the section changes nothing (already applied, or identical content added). */
  changed: boolean;
}

/** The patch planned: files by real path with their final content, and what each section does. */
export interface PatchPlan {
  /** Every file the patch touches, as it was. */
  disk: Map<string, FileOnDisk>;
  /** Final content by real path: bytes, or null for a file the patch removes. */
  after: Map<string, Uint8Array | null>;
  sections: PlannedSection[];
}

/** The paths a patch names, resolved for writing (policy checked), in section order. */
export async function resolvePatchPaths(
  ctx: ExtensionContext,
  sections: readonly PlannedChange[],
  signal: AbortSignal | undefined,
): Promise<Map<string, ResolvedPath>> {
  const resolved = new Map<string, ResolvedPath>();
  for (const section of sections) {
    for (const path of section.kind === "update" && section.moveTo
      ? [section.path, section.moveTo]
      : [section.path]) {
      if (!resolved.has(path)) resolved.set(path, await ctx.workspace.resolve(path, "write", { signal }));
    }
  }
  return resolved;
}

/** Options of {@link planPatch}. */
export interface PlanPatchOptions {
  /**
   * Refuse a file that changed since the model read it (default true). A plan made again after
   * another writer's change came between this call's read and its write checks the hunks, not
   * the read: the model's read was current when the call began.
   */
  checkStale?: boolean;
}

/**
 * Plans every section. Must run inside the mutation queue of every real path in `resolved`.
 * Throws a `ToolError` for the first section that cannot apply; nothing is written either way.
 */
export async function planPatch(
  ctx: ExtensionContext,
  sections: readonly PlannedChange[],
  resolved: ReadonlyMap<string, ResolvedPath>,
  signal: AbortSignal | undefined,
  options: PlanPatchOptions = {},
): Promise<PatchPlan> {
  const checkStale = options.checkStale !== false;
  const disk = new Map<string, FileOnDisk>();
  const after = new Map<string, Uint8Array | null>();
  const current = async (
    path: string,
  ): Promise<{ real: string; display: string; bytes: Uint8Array | null }> => {
    const first = resolved.get(path) as ResolvedPath;
    let known = disk.get(first.real);
    if (!known) {
      const target = await recheckWriteTarget(ctx, first, signal);
      known = await readFromDisk(ctx, target, signal, checkStale);
      disk.set(target.real, known);
    }
    const bytes = after.has(known.target.real) ? (after.get(known.target.real) ?? null) : known.bytes;
    return { real: known.target.real, display: known.target.display, bytes };
  };

  const planned: PlannedSection[] = [];
  for (const section of sections) {
    const file = await current(section.path);
    if (section.kind === "add") {
      const content = section.lines.map((line) => `${line}\n`).join("");
      assertWritable(ctx, content, "", file.display);
      const bytes = encodeText(content, "utf8", false);
      if (file.bytes !== null && !sameBytes(file.bytes, bytes)) {
        throw new ToolError("invalid_arguments", addExistsMessage(file.display, section.patchLine), {
          details: { path: file.display, patchLine: section.patchLine },
        });
      }
      after.set(file.real, bytes);
      planned.push({
        section,
        path: file.display,
        addedLines: section.lines.length,
        hunks: [],
        changed: file.bytes === null,
      });
      continue;
    }
    if (file.bytes === null) {
      const hint = await explainMissingPath(
        ctx,
        (resolved.get(section.path) as ResolvedPath).absolute,
        signal,
      );
      throw new ToolError(
        "not_found",
        missingFileMessage(section.kind, file.display, section.patchLine, hint.text),
        {
          details: { path: file.display, suggestions: hint.suggestions },
        },
      );
    }
    if (section.kind === "delete") {
      after.set(file.real, null);
      planned.push({ section, path: file.display, hunks: [], changed: true });
      continue;
    }
    const decoded = decodeText(file.bytes);
    const roundTrips =
      decoded.encoding === "utf8" ||
      sameBytes(encodeText(decoded.text, decoded.encoding, decoded.hasBom), file.bytes);
    if (decoded.lossy || !roundTrips) {
      throw new ToolError(
        "encoding",
        undecodableMessage(file.display, encodingLabel(decoded.encoding), shellToolOf(ctx)),
        { details: { path: file.display, encoding: decoded.encoding } },
      );
    }
    const document = createEditDocument(decoded.text);
    // Placeholders copied from redacted output stand for the values hidden there (as in edit).
    const { hunks, revealed } =
      section.kind === "insert"
        ? { hunks: [], revealed: [] }
        : expandHunkPlaceholders(document.lf, section.hunks, file.display, shellToolOf(ctx));
    const added = section.kind === "insert" ? section.text : hunks.flatMap(newLinesOf).join("\n");
    assertWritable(ctx, added, document.lf, file.display);
    if (decoded.encoding === "utf8" && hasLoneSurrogate(added)) {
      throw new ToolError("encoding", unencodableMessage(file.display, encodingLabel(decoded.encoding)));
    }
    const located =
      section.kind === "insert"
        ? locateInsert(document.lf, section, file.display)
        : hidingRevealed(() => locateHunks(document.lf, hunks, file.display), revealed);
    const changedText = located.replacements.length > 0;
    const spans = originalSpans(document, located.replacements);
    const bytes = changedText
      ? encodeEditedFile(file.bytes, decoded, {
          document,
          spans,
          text: spliceSpans(document.original, spans),
        })
      : file.bytes;
    const before = { lf: document.lf, replacements: located.replacements };
    if (section.kind === "insert" || section.moveTo === undefined) {
      after.set(file.real, bytes);
      planned.push({ section, path: file.display, before, hunks: located.outcomes, changed: changedText });
      continue;
    }
    const destination = await current(section.moveTo);
    if (destination.real !== file.real) {
      if (destination.bytes !== null) {
        throw new ToolError(
          "invalid_arguments",
          moveExistsMessage(file.display, destination.display, section.patchLine),
          { details: { path: file.display, moveTo: destination.display } },
        );
      }
      after.set(file.real, null);
    }
    after.set(destination.real, bytes);
    planned.push({
      section,
      path: file.display,
      movedTo: destination.display,
      before,
      hunks: located.outcomes,
      changed: changedText || destination.real !== file.real,
    });
  }
  return { disk, after, sections: planned };
}

/** Where a line insertion goes, as a located hunk; refuses a line past the end of the file. */
function locateInsert(lf: string, insert: LineInsert, display: string): LocatedHunks {
  const lineCount = lf === "" ? 0 : lf.split("\n").length - (lf.endsWith("\n") ? 1 : 0);
  if (!Number.isInteger(insert.afterLine) || insert.afterLine < 0 || insert.afterLine > lineCount) {
    throw new ToolError(
      "invalid_arguments",
      `insert_line ${insert.afterLine} is not a line of ${display}, which has ${lineCount} line${lineCount === 1 ? "" : "s"}. Nothing was changed. Send a number from 0 (insert at the top) to ${lineCount} (insert at the end).`,
      { details: { path: display, lineCount } },
    );
  }
  let start = 0;
  for (let line = 0; line < insert.afterLine; line++) start = lf.indexOf("\n", start) + 1 || lf.length;
  // After a last line without a line break, the break goes before the inserted lines.
  const text =
    start === lf.length && lf !== "" && !lf.endsWith("\n") ? `\n${insert.text}` : `${insert.text}\n`;
  return {
    replacements: [{ edit: 0, start, end: start, text }],
    outcomes: [{ hunk: 0, status: "applied", matcher: "exact", line: insert.afterLine + 1 }],
  };
}

/** `locate()`, its refusals with every value a placeholder put back hidden again. */
function hidingRevealed<T>(locate: () => T, revealed: readonly RevealedSecret[]): T {
  try {
    return locate();
  } catch (error) {
    throw revealed.length > 0 && isToolError(error) ? hideRevealedInError(error, revealed) : error;
  }
}

/** Reads one file the patch names, refusing directories, special files and (when asked) stale reads. */
async function readFromDisk(
  ctx: ExtensionContext,
  target: ResolvedPath,
  signal: AbortSignal | undefined,
  checkStale: boolean,
): Promise<FileOnDisk> {
  try {
    const stat = await ctx.operations.stat(target.real, { signal });
    if (stat.type === "directory") {
      throw new ToolError("is_directory", directoryMessage(target.display));
    }
    if (stat.type === "other") throw specialFileError(target.display);
    const bytes = await ctx.operations.readFile(target.real, { signal });
    const sha256 = checkStale
      ? assertNotStale(ctx, target.real, bytes, target.display, stat.mtimeMs)
      : undefined;
    return { target, bytes, sha256 };
  } catch (error) {
    if (isOperationError(error, "not_found")) return { target, bytes: null };
    throw error;
  }
}

/** Refuses redaction placeholders the file does not hold: they would replace real secrets. */
function assertWritable(ctx: ExtensionContext, added: string, original: string, display: string): void {
  const placeholders = unknownPlaceholders(added, original);
  if (placeholders.length === 0) return;
  const shell = shellToolOf(ctx);
  throw new ToolError(
    "redacted_text",
    `The patch adds ${placeholders.join(", ")} to ${display}: a placeholder for a secret that read or grep redacted, which would replace the real value. Nothing was changed. Leave lines with a placeholder out of the patch${shell ? `, or change them with ${shell}` : ""}.`,
    { details: { path: display, placeholders } },
  );
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
