/**
 * The edit tool: exact text replacements in one existing file, matched against its original
 * content, applied all or nothing inside the file mutation queue, written atomically with the
 * file's encoding, BOM and line endings kept.
 */

import type { TextContent } from "@tackle/agent-core";
import { ToolError } from "@tackle/agent-core";
import type { ChangeFeedback, ExtensionContext, ResolvedPath, ToolDefinition } from "@tackle/extensions";
import { isOperationError } from "@tackle/operations";
import { assertNotStale, explainMissingPath, recheckWriteTarget, recordRead } from "@tackle/session";
import { recordFileChange, recordNoChange } from "../audit/file-effects.js";
import { DEFAULTS } from "../defaults.js";
import { type ChangeReport, reportAfterChange } from "../diagnostics/after-change.js";
import type { EditOutcome } from "../edit/plan.js";
import { prepareEditArguments } from "../edit/repair-arguments.js";
import { rememberAppliedEdits } from "../edit/session-edits.js";
import { formatEditSummary } from "../edit/summary.js";
import type { TextEncodingName } from "../text/encoding.js";
import { toolErrorCodes } from "../tool-error-codes.js";
import { specialFileError, toToolError } from "../tool-errors.js";
import { hasTool, hintFor, shellToolOf } from "../tool-names.js";
import { checkOptions } from "../tool-options.js";
import { busyError, type PreparedEdit, prepareEdit, redoOnFresh } from "./edit-attempt.js";
import { type EditParams, editParameters } from "./edit-parameters.js";
import { writeIfUnchanged } from "./write-if-unchanged.js";

/** What edit fails with beyond the core's codes. */
const EDIT_ERROR_CODES = toolErrorCodes(
  "no_match",
  "ambiguous_match",
  "overlapping_edits",
  "encoding",
  "redacted_text",
);
/** The codes edit declares (beside the core's). */
export type EditErrorCode = keyof typeof EDIT_ERROR_CODES;

export type { EditParams } from "./edit-parameters.js";

/** What the edit tool reports to hosts. */
export interface EditDetails {
  path: string;
  real: string;
  dryRun: boolean;
  /** False when every edit was already applied (nothing written). */
  changed: boolean;
  /** Per edit: applied or already applied, matcher (`exact` / `fuzzy:<kinds>`), lines. */
  edits: EditOutcome[];
  /** Unified diff of the change (empty when nothing changed). */
  diff: string;
  added: number;
  removed: number;
  /** 1-based line of the first change in the new file. */
  firstChangedLine: number | undefined;
  encoding: TextEncodingName;
  hasBom: boolean;
  /** Bytes written (or that would be written on a dry run). */
  writtenBytes: number;
  /**
   * Times another writer changed the file between this call's read and its write, so its edits
   * were matched again on the fresh content (0 normally; see docs/write-safety.md).
   */
  redone: number;
  /** The syntax check and diagnostics after the change (absent when nothing was written). */
  feedback?: ChangeFeedback;
}

/** Options for {@link createEditToolDefinition}. */
export interface EditToolOptions {
  /** Lines and bytes of diff shown to the model (defaults from `DEFAULTS`). */
  maxLines?: number;
  maxBytes?: number;
}

/** Creates the edit tool. Its environment comes from the context of each call. */
export function createEditToolDefinition(
  options: EditToolOptions = {},
): ToolDefinition<typeof editParameters, EditDetails, EditErrorCode> {
  checkOptions("edit tool", options, { maxLines: "positive-integer", maxBytes: "positive-integer" });
  const maxLines = options.maxLines ?? DEFAULTS.maxLines;
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  return {
    name: "edit",
    label: "Edit",
    description: [
      "Replace exact text in an existing file. Each edit's oldText must match the file once (copy it from read output,",
      "with enough surrounding lines to be unique) or set replaceAll. All edits match the file as it is now, must not",
      "overlap, and apply together or not at all. If oldText differs only by quotes, dashes, spaces, Unicode forms,",
      "trailing whitespace or copied line numbers, a fuzzy match is used and named in the result. An oldText that starts",
      "or ends with a letter, digit or underscore matches whole words and numbers only. Send oldText and newText as strings.",
      "Write newText in full: a placeholder such as // ... existing code ... never deletes the lines it stands for (it is",
      "refused, or kept when it alone replaces a run of oldText lines).",
      "Keeps encoding, BOM and line endings. Refused when the file changed since you read it: read it again.",
      "Returns a summary naming the matcher used and a diff. dryRun=true shows the diff without writing. To create a file use write.",
    ].join(" "),
    promptSnippet: "edit: replace exact text in a file (several edits per call, all or nothing)",
    promptGuidelines: [
      "Read a file before editing it, and copy oldText exactly from what read showed (without the line numbers).",
      "Put every change to one file in a single edit call with several edits.",
    ],
    parameters: editParameters,
    prepareArguments: prepareEditArguments,
    errorCodes: EDIT_ERROR_CODES,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const resolved = await ctx.workspace.resolve(params.path, "write", { signal });
      if (!resolved.exists) throw await notFound(ctx, resolved, signal);
      try {
        return await ctx.mutations.withFileMutation(
          resolved.real,
          () => editFile(ctx, resolved, params, signal, toolCallId),
          { signal, real: true },
        );
      } catch (error) {
        if (isOperationError(error, "not_found")) throw await notFound(ctx, resolved, signal);
        throw toToolError(error, resolved.display);
      }
    },
  };

  async function editFile(
    ctx: ExtensionContext,
    resolved: ResolvedPath,
    params: EditParams,
    signal: AbortSignal | undefined,
    toolCallId: string,
  ) {
    const ops = ctx.operations;
    const target = await recheckWriteTarget(ctx, resolved, signal);
    const stat = await ops.stat(target.real, { signal });
    if (stat.type === "directory") {
      throw new ToolError(
        "is_directory",
        `${target.display} is a directory; edit needs a file.${hintFor(ctx, [["ls", " Use ls to list it."]], " Send the path of a file.")}`,
      );
    }
    if (stat.type === "other") throw specialFileError(target.display);
    const bytes = await ops.readFile(target.real, { signal });
    // Known when the model read the whole file before: the audit record reuses it.
    const sha256Read = assertNotStale(ctx, target.real, bytes, target.display, stat.mtimeMs);
    const shell = shellToolOf(ctx);
    const prepare = (from: Uint8Array): PreparedEdit =>
      prepareEdit(ctx, target.display, target.real, from, params, shell);
    const dryRun = params.dryRun === true;
    let prepared: PreparedEdit = { ...prepare(bytes), sha256Before: sha256Read };
    let redone = 0;
    if (prepared.plan.changed && !dryRun) {
      const committed = await writeIfUnchanged(
        ctx,
        target,
        prepared,
        (fresh) => redoOnFresh(fresh, target.display, prepare, prepared.plan.outcomes),
        () => busyError(target.display),
        signal,
      );
      prepared = committed.attempt;
      redone = committed.redone;
    }
    const { before, decoded, plan } = prepared;
    // The diff library is loaded by the first edit, not by every process that creates the tools.
    const { buildEditDiff } = await import("../edit/diff.js");
    const diff = buildEditDiff(target.display, plan.document.lf, plan.replacements);
    const data = prepared.data ?? before;
    let report: ChangeReport | undefined;
    if (plan.changed && !dryRun) {
      // The model knows this content now: a follow-up edit must not be refused as stale.
      const sha256After = recordRead(ctx, target.real, data);
      rememberAppliedEdits(ctx.reads, target.real, plan.applied);
      recordFileChange(
        ctx.call.audit,
        { path: target.real, before, after: data, sha256Before: prepared.sha256Before, sha256After },
        "file",
      );
      const change = { toolCallId, toolName: "edit", path: target.real, display: target.display };
      report = await reportAfterChange(ctx, { ...change, before, after: data, signal });
    } else {
      const why = dryRun ? "dry run: nothing written" : "every edit was already applied";
      recordNoChange(ctx.call.audit, "file", why);
    }
    const details: EditDetails = {
      path: target.display,
      real: target.real,
      dryRun,
      changed: plan.changed,
      edits: plan.outcomes,
      diff: diff.patch,
      added: diff.added,
      removed: diff.removed,
      firstChangedLine: diff.firstChangedLine,
      encoding: decoded.encoding,
      hasBom: decoded.hasBom,
      writtenBytes: plan.changed ? data.length : 0,
      redone,
      ...(report ? { feedback: report.feedback } : {}),
    };
    const text = formatEditSummary({
      path: target.display,
      outcomes: plan.outcomes,
      diff,
      dryRun,
      changed: plan.changed,
      maxLines,
      maxBytes,
      bash: hasTool(ctx, "bash"),
    });
    const note = redone > 0 ? `\n${REDONE_NOTE}` : "";
    const withFeedback = report?.text ? `${text}${note}\n\n${report.text}` : text + note;
    return { content: [{ type: "text", text: withFeedback } satisfies TextContent], details };
  }
}

/** Said after the summary when the edits had to be matched again on another writer's content. */
const REDONE_NOTE =
  "Another writer changed the file while this edit was being saved; your edits still matched its new content and were applied to it (other lines keep their change).";

async function notFound(ctx: ExtensionContext, resolved: ResolvedPath, signal: AbortSignal | undefined) {
  const hint = await explainMissingPath(ctx, resolved.absolute, signal);
  return new ToolError(
    "not_found",
    `File not found: ${resolved.display}.${hint.text} edit changes existing files${hintFor(ctx, [["write", "; use write to create a new one"]], "; send the path of an existing file")}.`,
    {
      details: {
        path: resolved.display,
        suggestions: hint.suggestions,
        ...(hint.danglingTarget !== undefined ? { danglingTarget: hint.danglingTarget } : {}),
      },
    },
  );
}
