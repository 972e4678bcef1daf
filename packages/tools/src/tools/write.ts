/**
 * The write tool: create or replace a whole file, atomically, inside the file mutation queue.
 * An existing file keeps its mode, encoding, BOM and line endings; a file changed since the
 * model read it is not overwritten.
 */

import type { TextContent } from "@tackle/agent-core";
import { ToolError } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ChangeFeedback, ExtensionContext, ToolDefinition } from "@tackle/extensions";
import { isOperationError, type Operations } from "@tackle/operations";
import { assertNotStale, pathSyntax, recheckWriteTarget, recordRead } from "@tackle/session";
import { recordFileChange, recordNoChange } from "../audit/file-effects.js";
import { reportAfterChange } from "../diagnostics/after-change.js";
import {
  decodeText,
  encodeText,
  encodingLabel,
  hasLoneSurrogate,
  type TextEncodingName,
} from "../text/encoding.js";
import { countLines, dominantLineEnding } from "../text/line-endings.js";
import { unknownPlaceholders } from "../text/untrusted.js";
import { toolErrorCodes } from "../tool-error-codes.js";
import { specialFileError, toToolError } from "../tool-errors.js";
import { hasTool, hintFor, shellToolOf } from "../tool-names.js";
import { checkOptions } from "../tool-options.js";
import { utf8ByteLength } from "../truncate.js";
import { writeIfUnchanged } from "./write-if-unchanged.js";

/** What write fails with beyond the core's codes. */
const WRITE_ERROR_CODES = toolErrorCodes("encoding", "redacted_text");
/** The codes write declares (beside the core's). */
export type WriteErrorCode = keyof typeof WRITE_ERROR_CODES;

const writeParameters = Type.Object({
  path: Type.String({ description: "File to write, relative to the working directory or absolute." }),
  content: Type.String({ description: "The complete new content of the file." }),
  dryRun: Type.Optional(
    Type.Boolean({ description: "Check and report what would be written without writing." }),
  ),
});

/** Arguments of the write tool. */
export type WriteParams = Static<typeof writeParameters>;

/** What the write tool reports to hosts. */
export interface WriteDetails {
  path: string;
  real: string;
  created: boolean;
  dryRun: boolean;
  /** UTF-8 bytes and lines of `content` as given. */
  bytes: number;
  lines: number;
  /** Bytes actually written (differs from `bytes` for UTF-16, a BOM or CRLF conversion). */
  writtenBytes: number;
  encoding: TextEncodingName;
  hasBom: boolean;
  lineEnding: "lf" | "crlf";
  /** The syntax check and diagnostics after the change (absent on a dry run). */
  feedback?: ChangeFeedback;
}

/** Creates the write tool (it has no options). Its environment comes from the context of each call. */
export function createWriteToolDefinition(
  options: Record<string, never> = {},
): ToolDefinition<typeof writeParameters, WriteDetails, WriteErrorCode> {
  checkOptions("write tool", options, {});
  return {
    name: "write",
    label: "Write",
    description: [
      "Create a file or replace its whole content; missing parent directories are created.",
      "An existing file keeps its permissions, encoding, BOM and line endings. The write is atomic.",
      "Refused when the file changed since you last read it: read it again first. For small changes prefer edit.",
      "Returns the lines and UTF-8 bytes of content. dryRun=true reports what would be written without writing.",
    ].join(" "),
    promptSnippet: "write: create or overwrite a whole file",
    parameters: writeParameters,
    errorCodes: WRITE_ERROR_CODES,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async execute(toolCallId, params, signal, _onUpdate, ctx) {
      const resolved = await ctx.workspace.resolve(params.path, "write", { signal });
      const ops = ctx.operations;
      const syntax = pathSyntax(ops.platform);
      try {
        return await ctx.mutations.withFileMutation(
          resolved.real,
          async () => {
            const target = await recheckWriteTarget(ctx, resolved, signal);
            const lsHint = hintFor(ctx, [["ls", ", or use ls to list it"]]);
            const found = await readExisting(ops, target.real, target.display, lsHint, signal);
            const existing = found?.bytes ?? null;
            // Known when the model read the whole file before: the audit record reuses it.
            const sha256Before = found
              ? assertNotStale(ctx, target.real, found.bytes, target.display, found.mtimeMs)
              : undefined;
            const existingText = existing ? decodeText(existing).text : "";
            assertNoPlaceholders(ctx, params.content, existingText, target.display);
            const style = existing
              ? styleOf(existing)
              : { encoding: "utf8" as const, hasBom: false, lineEnding: "\n" as const };
            if (style.encoding === "utf8" && hasLoneSurrogate(params.content)) {
              throw new ToolError(
                "encoding",
                `content holds a lone UTF-16 surrogate, which UTF-8 cannot store. Nothing was written to ${target.display}; send the full character (both halves of the pair) or another character.`,
              );
            }
            const text =
              style.lineEnding === "\r\n" && !params.content.includes("\r\n")
                ? params.content.replaceAll("\n", "\r\n")
                : params.content;
            const data = encodeText(text, style.encoding, style.hasBom);
            const details: WriteDetails = {
              path: target.display,
              real: target.real,
              created: !existing,
              dryRun: params.dryRun === true,
              bytes: utf8ByteLength(params.content),
              lines: countLines(params.content),
              writtenBytes: data.length,
              encoding: style.encoding,
              hasBom: style.hasBom,
              lineEnding: style.lineEnding === "\r\n" ? "crlf" : "lf",
            };
            if (!params.dryRun) {
              if (!existing) await ops.mkdir(syntax.dirname(target.real), { recursive: true, signal });
              // Only over what was read just now (or into no file): another writer's change
              // that lands in between is refused, never overwritten unseen.
              const attempt = { before: existing, sha256Before, data };
              await writeIfUnchanged(
                ctx,
                target,
                attempt,
                () => {
                  throw changedWhileWriting(target.display);
                },
                () => changedWhileWriting(target.display),
                signal,
              );
              const sha256After = recordRead(ctx, target.real, data);
              recordFileChange(
                ctx.call.audit,
                {
                  path: target.real,
                  before: existing,
                  after: data,
                  sha256Before: attempt.sha256Before,
                  sha256After,
                },
                "file",
              );
              const change = { toolCallId, toolName: "write", path: target.real, display: target.display };
              const report = await reportAfterChange(ctx, {
                ...change,
                before: existing,
                after: data,
                signal,
              });
              details.feedback = report.feedback;
              const text = report.text ? `${summary(details)}\n\n${report.text}` : summary(details);
              return { content: [{ type: "text", text } satisfies TextContent], details };
            } else {
              recordNoChange(ctx.call.audit, "file", "dry run: nothing written");
            }
            return { content: [{ type: "text", text: summary(details) } satisfies TextContent], details };
          },
          { signal, real: true },
        );
      } catch (error) {
        throw toToolError(error, resolved.display);
      }
    },
  };
}

/** The refusal when another writer changed (or created) the file between this call's read and its write. */
function changedWhileWriting(display: string): ToolError {
  return new ToolError(
    "stale_read",
    `${display} was changed by another writer while this write was being saved; nothing was written. Read it again, then write.`,
  );
}

/**
 * Refuses redaction placeholders the file does not already contain: content rebuilt from redacted
 * read output would replace real secrets with `[REDACTED:kind]`.
 */
function assertNoPlaceholders(
  ctx: ExtensionContext,
  content: string,
  existingText: string,
  display: string,
): void {
  const placeholders = unknownPlaceholders(content, existingText);
  if (placeholders.length === 0) return;
  const shell = shellToolOf(ctx);
  const steps = [
    ...(hasTool(ctx, "edit")
      ? [
          "Change the lines with edit instead (a placeholder copied into oldText and newText keeps its secret)",
        ]
      : []),
    ...(shell ? [`use ${shell}`] : []),
  ];
  const next =
    steps.length > 0 ? steps.join(", or ") : "Leave the file as it is, or ask the user to make this change";
  throw new ToolError(
    "redacted_text",
    `content contains ${placeholders.join(", ")}: a placeholder for a secret that read or grep redacted, which would replace the real value. Nothing was written to ${display}. ${next[0]?.toUpperCase()}${next.slice(1)}.`,
    { details: { path: display, placeholders } },
  );
}

async function readExisting(
  ops: Pick<Operations, "stat" | "readFile">,
  real: string,
  display: string,
  /** Said after "Name a file inside it" when the model has ls. */
  lsHint: string,
  signal: AbortSignal | undefined,
): Promise<{ bytes: Uint8Array; mtimeMs: number } | null> {
  try {
    const stat = await ops.stat(real, { signal });
    if (stat.type === "directory") {
      throw new ToolError(
        "is_directory",
        `${display} is a directory; write needs a file path. Name a file inside it${lsHint}.`,
      );
    }
    if (stat.type === "other") throw specialFileError(display);
    return { bytes: await ops.readFile(real, { signal }), mtimeMs: stat.mtimeMs };
  } catch (error) {
    if (isOperationError(error, "not_found")) return null;
    throw error;
  }
}

function styleOf(existing: Uint8Array): {
  encoding: TextEncodingName;
  hasBom: boolean;
  lineEnding: "\n" | "\r\n";
} {
  const decoded = decodeText(existing);
  return { encoding: decoded.encoding, hasBom: decoded.hasBom, lineEnding: dominantLineEnding(decoded.text) };
}

function summary(details: WriteDetails): string {
  const what = `${details.lines} line${details.lines === 1 ? "" : "s"}, ${details.bytes} byte${details.bytes === 1 ? "" : "s"}`;
  const kept: string[] = [];
  if (details.encoding !== "utf8") kept.push(encodingLabel(details.encoding));
  if (details.hasBom) kept.push("BOM");
  if (details.lineEnding === "crlf") kept.push("CRLF line endings");
  const keptText = kept.length > 0 ? ` Kept the file's ${kept.join(", ")}.` : "";
  if (details.dryRun) {
    return `Dry run: would ${details.created ? "create" : "overwrite"} ${details.path} with ${what}. Nothing was written.${keptText}`;
  }
  return `${details.created ? "Created" : "Overwrote"} ${details.path}: ${what}.${keptText}`;
}
