/**
 * OpenAI's built-in `apply_patch` tool (Responses API, GPT-5.1 and later): the model sends one
 * operation per call (`create_file` / `update_file` with a V4A diff, `delete_file`), the host
 * answers `apply_patch_call_output` with `status` and `output`. Here each operation becomes a
 * section of a Tackle patch and runs on the apply_patch engine.
 */
import { ToolError, type ToolOutcome } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ToolDefinition } from "@tackle/extensions";
import { DEFAULTS } from "../defaults.js";
import { type ApplyPatchDetails, applyParsedPatch } from "../patch/apply.js";
import {
  ADD_FILE,
  BEGIN_PATCH,
  END_PATCH,
  type PatchSection,
  parsePatch,
  UPDATE_FILE,
} from "../patch/parse.js";
import { formatPatchSummary } from "../patch/summary.js";
import { PATCH_ERROR_CODES, type PatchErrorCode } from "../tool-error-codes.js";
import { outcomeText } from "./outcome-text.js";

const operation = Type.Union([
  Type.Object({ type: Type.Literal("create_file"), path: Type.String(), diff: Type.String() }),
  Type.Object({ type: Type.Literal("update_file"), path: Type.String(), diff: Type.String() }),
  Type.Object({ type: Type.Literal("delete_file"), path: Type.String() }),
]);

const parameters = Type.Object({
  callId: Type.Optional(Type.String({ description: "The call's id (apply_patch_call.call_id)." })),
  operation,
});

/** Input of OpenAI's apply_patch tool, as the AI SDK passes it (`callId`, `operation`). */
export type OpenAIApplyPatchInput = Static<typeof parameters>;

/** One operation of an `apply_patch_call`. */
export type OpenAIApplyPatchOperation = OpenAIApplyPatchInput["operation"];

/** What the host answers: `apply_patch_call_output` without its `type` and `call_id`. */
export interface OpenAIApplyPatchOutput {
  status: "completed" | "failed";
  output?: string;
}

/** The operation as a patch section; a diff that holds a whole patch is read as one. */
export function operationToSection(op: OpenAIApplyPatchOperation): PatchSection {
  if (op.path.includes("\n") || op.path.trim() === "") {
    throw new ToolError(
      "invalid_arguments",
      `path must be one line naming a file; got ${JSON.stringify(op.path)}. Nothing was changed.`,
    );
  }
  if (op.type === "delete_file") return { kind: "delete", path: op.path, patchLine: 0 };
  const diff = op.diff.replace(/\r\n/g, "\n");
  const header = op.type === "create_file" ? ADD_FILE : UPDATE_FILE;
  const whole = diff.trimStart().startsWith(BEGIN_PATCH);
  // The two lines put before the diff are numbered -1 and 0: messages count the diff's own lines.
  const sections = whole
    ? parsePatch(diff).sections
    : parsePatch(`${BEGIN_PATCH}\n${header}${op.path}\n${diff.replace(/\n$/, "")}\n${END_PATCH}`, {
        firstLine: -1,
      }).sections;
  const section = sections[0];
  const kind = op.type === "create_file" ? "add" : "update";
  if (sections.length !== 1 || section?.kind !== kind) {
    throw new ToolError(
      "invalid_arguments",
      `The diff of a ${op.type} operation must hold the ${kind === "add" ? "'+' lines of the new file" : "'@@' hunks of the file"} only. Nothing was changed. Send one operation per file.`,
    );
  }
  return { ...section, path: op.path };
}

/** Maps an outcome of the tool to `apply_patch_call_output`'s `status` and `output`. */
export function toOpenAIApplyPatchOutput(outcome: ToolOutcome): OpenAIApplyPatchOutput {
  return { status: outcome.isError ? "failed" : "completed", output: outcomeText(outcome) };
}

/**
 * The tool behind OpenAI's built-in apply_patch: name `apply_patch`, input `{ callId, operation }`.
 * Every guarantee of the apply_patch tool holds (policy, queue, stale reads, all or nothing).
 */
export function createOpenAIApplyPatchToolDefinition(): ToolDefinition<
  typeof parameters,
  ApplyPatchDetails,
  PatchErrorCode
> {
  return {
    name: "apply_patch",
    label: "Apply patch (OpenAI)",
    // The provider takes back `{ status, output }`, not text.
    providerTool: { id: "openai.apply_patch", toResult: toOpenAIApplyPatchOutput },
    description:
      "Create, update or delete one file with a V4A diff: create_file takes the file's lines prefixed with '+', update_file takes '@@' hunks (' ' kept, '-' removed, '+' added lines), delete_file takes none.",
    promptGuidelines: [
      "Look at a file (with shell, e.g. sed -n) before patching it, and copy its kept and removed lines exactly.",
    ],
    parameters,
    errorCodes: PATCH_ERROR_CODES,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const section = operationToSection(params.operation);
      const details = await applyParsedPatch(
        ctx,
        { sections: [section] },
        { toolCallId, signal, source: "file" },
      );
      const text = formatPatchSummary(details, { maxLines: DEFAULTS.maxLines, maxBytes: DEFAULTS.maxBytes });
      return { content: [{ type: "text", text }], details };
    },
  };
}
