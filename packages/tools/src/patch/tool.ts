/**
 * The apply_patch tool: a V4A patch (`*** Begin Patch` ... `*** End Patch`) over any number of
 * files, on the engines of edit and write (path policy, mutation queue, stale-read check, atomic
 * writes that keep encoding, BOM and line endings, audit), all or nothing.
 */
import type { TextContent } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ToolDefinition } from "@tackle/extensions";
import { DEFAULTS } from "../defaults.js";
import { PATCH_ERROR_CODES, type PatchErrorCode } from "../tool-error-codes.js";
import { checkOptions } from "../tool-options.js";
import { type ApplyPatchDetails, applyPatch } from "./apply.js";
import { APPLY_PATCH_DESCRIPTION, APPLY_PATCH_TOOL_NAME } from "./grammar.js";
import { formatPatchSummary } from "./summary.js";

const applyPatchParameters = Type.Object({
  input: Type.String({ description: "The whole patch, from '*** Begin Patch' to '*** End Patch'." }),
});

/** Arguments of the apply_patch tool. */
export type ApplyPatchParams = Static<typeof applyPatchParameters>;

/** Options of {@link createApplyPatchToolDefinition}. */
export interface ApplyPatchToolOptions {
  /** Lines and bytes of diff shown to the model (defaults from `DEFAULTS`). */
  maxLines?: number;
  maxBytes?: number;
}

/**
 * Takes the patch from the shapes models send: the text itself (a free-form custom tool call),
 * `{ input }`, or the patch under `patch` or `diff`.
 */
function patchArguments(raw: unknown): unknown {
  if (typeof raw === "string") return { input: raw };
  if (raw === null || typeof raw !== "object" || "input" in raw) return raw;
  const record = raw as Record<string, unknown>;
  const text = record.patch ?? record.diff;
  return typeof text === "string" ? { input: text } : raw;
}

/** Creates the apply_patch tool. Its environment comes from the context of each call. */
export function createApplyPatchToolDefinition(
  options: ApplyPatchToolOptions = {},
): ToolDefinition<typeof applyPatchParameters, ApplyPatchDetails, PatchErrorCode> {
  checkOptions("apply_patch tool", options, { maxLines: "positive-integer", maxBytes: "positive-integer" });
  const limits = {
    maxLines: options.maxLines ?? DEFAULTS.maxLines,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
  };
  return {
    name: APPLY_PATCH_TOOL_NAME,
    label: "Apply patch",
    description: APPLY_PATCH_DESCRIPTION,
    promptSnippet: "apply_patch: add, update, move and delete files with one V4A patch (all or nothing)",
    promptGuidelines: [
      "Read a file before patching it, and copy the kept and removed lines exactly (without read's line numbers).",
      "Put every change of one task in one patch; hunks of a file go in file order.",
    ],
    parameters: applyPatchParameters,
    prepareArguments: patchArguments,
    errorCodes: PATCH_ERROR_CODES,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const details = await applyPatch(ctx, params.input, { signal, toolCallId, source: "file" });
      const text = formatPatchSummary(details, limits);
      return { content: [{ type: "text", text } satisfies TextContent], details };
    },
  };
}
