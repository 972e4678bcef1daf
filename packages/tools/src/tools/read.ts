/**
 * The read tool: a text file with line numbers (streamed, constant memory, exact totals), an
 * image as image content, and clear refusals for binaries and directories.
 */

import type { ImageContent, TextContent } from "@tackle/agent-core";
import { ToolError } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ExtensionContext, ResolvedPath, ToolDefinition } from "@tackle/extensions";
import { isOperationError } from "@tackle/operations";
import {
  explainMissingPath,
  READ_WHOLE_HASH_MAX_BYTES,
  recordRead,
  redactionSourceOf,
} from "@tackle/session";
import { DEFAULTS, formatBytes } from "../defaults.js";
import { parseAfterRead, parsesAfterRead } from "../syntax/parse-after-read.js";
import { encodingLabel } from "../text/encoding.js";
import { formatNumberedLines } from "../text/line-numbers.js";
import { readLineWindow } from "../text/line-window.js";
import { createNewlineCounter } from "../text/newline-count.js";
import { SNIFF_BYTES, sniffFileType } from "../text/sniff.js";
import {
  markUntrusted,
  type SanitizedDetails,
  sanitizedDetails,
  sanitizeLines,
  sanitizeNotice,
} from "../text/untrusted.js";
import { toolErrorCodes } from "../tool-error-codes.js";
import { specialFileError, toToolError } from "../tool-errors.js";
import { hasTool, hintFor } from "../tool-names.js";
import { checkOptions } from "../tool-options.js";
import { truncateHeadLines } from "../truncate.js";

/** What read fails with beyond the core's codes. */
const READ_ERROR_CODES = toolErrorCodes("binary_file");
/** The codes read declares (beside the core's). */
export type ReadErrorCode = keyof typeof READ_ERROR_CODES;

/** Largest image read returns as image content (larger images are refused, not shrunk). */
export const READ_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** read's parameters; `maxLines` is the line cap the `limit` description states. */
function readParametersFor(maxLines: number) {
  return Type.Object({
    path: Type.String({ description: "File to read, relative to the working directory or absolute." }),
    offset: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: "First line to show, as numbered in read output (default: the first line).",
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, description: `Most lines to show. Default and maximum ${maxLines}.` }),
    ),
  });
}

const readParameters = readParametersFor(DEFAULTS.maxLines);

/** Arguments of the read tool. */
export type ReadParams = Static<typeof readParameters>;

/** What the read tool reports to hosts. */
export interface ReadDetails {
  path: string;
  real: string;
  kind: "text" | "image";
  /** Text: first and last line shown, exact total lines and bytes. */
  startLine?: number;
  endLine?: number;
  totalLines?: number;
  totalBytes: number;
  encoding?: string;
  hasBom?: boolean;
  lossy?: boolean;
  /** Text: which limit cut the output, or null. */
  truncatedBy?: "lines" | "bytes" | null;
  /** Text: line numbers that were cut because they are longer than the byte limit. */
  cutLines?: number[];
  mimeType?: string;
  /** Text: lines that had control characters removed or secrets redacted (absent when none). */
  sanitized?: SanitizedDetails;
}

/** Options for {@link createReadToolDefinition}. */
export interface ReadToolOptions {
  /** Lines and bytes one call shows (defaults from `DEFAULTS`). */
  maxLines?: number;
  maxBytes?: number;
  /**
   * Largest file a read hashes whole for the read ledger (default `READ_WHOLE_HASH_MAX_BYTES`);
   * a larger one is recorded by size, mtime and the hash of the bytes shown.
   */
  wholeHashMaxBytes?: number;
}

/** Creates the read tool. Its environment comes from the context of each call. */
export function createReadToolDefinition(
  options: ReadToolOptions = {},
): ToolDefinition<typeof readParameters, ReadDetails, ReadErrorCode> {
  checkOptions("read tool", options, {
    maxLines: "positive-integer",
    maxBytes: "positive-integer",
    wholeHashMaxBytes: "positive-integer",
  });
  const maxLines = options.maxLines ?? DEFAULTS.maxLines;
  const maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
  const wholeHashMaxBytes = options.wholeHashMaxBytes ?? READ_WHOLE_HASH_MAX_BYTES;
  return {
    name: "read",
    label: "Read",
    description: [
      "Read a file. Text comes back with line numbers; png, jpeg, gif and webp images come back as images.",
      `Shows at most ${maxLines} lines or ${formatBytes(maxBytes)}, whichever comes first, and says how to continue (offset/limit).`,
      `A line longer than ${formatBytes(maxBytes)} is cut with a notice. Binary files are refused with their type, directories with a note to list them instead.`,
      "Read a file before you edit or overwrite it.",
      "Control characters are removed and secrets shown as [REDACTED:kind]; edit matches a placeholder copied into oldText to the hidden secret (repeat it in newText to keep it); write refuses placeholders.",
    ].join(" "),
    promptSnippet: "read: show a file with line numbers (offset/limit for long files), or an image",
    parameters: readParametersFor(maxLines),
    errorCodes: READ_ERROR_CODES,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      const resolved = await ctx.workspace.resolve(params.path, "read", { signal });
      try {
        return await readResolved(ctx, resolved, params, { maxLines, maxBytes, wholeHashMaxBytes }, signal);
      } catch (error) {
        if (isOperationError(error, "not_found")) throw await notFound(ctx, resolved, signal);
        throw toToolError(error, resolved.display);
      }
    },
  };
}

async function readResolved(
  ctx: ExtensionContext,
  resolved: ResolvedPath,
  params: ReadParams,
  limits: { maxLines: number; maxBytes: number; wholeHashMaxBytes: number },
  signal: AbortSignal | undefined,
) {
  const ops = ctx.operations;
  const stat = await ops.stat(resolved.absolute, { signal });
  if (stat.type === "directory") {
    throw new ToolError(
      "is_directory",
      `${resolved.display} is a directory.${hintFor(
        ctx,
        [
          ["ls", " Use ls to list it."],
          ["find", " Use find with path to list its files."],
          ["bash", " List it with bash (ls)."],
        ],
        " Send the path of a file.",
      )}`,
    );
  }
  // A FIFO or device would block or never end: refuse before opening it.
  if (stat.type === "other") throw specialFileError(resolved.display);
  // After the head (whose chunks readHead keeps), chunks are read straight into the newline
  // counter's memory where the adapter can: counted in place, no buffer allocated per chunk.
  // Not when the file's chunks are kept for a background syntax parse (each then has its own memory).
  const newlines = createNewlineCounter();
  const kept: Uint8Array[] | undefined = parsesAfterRead(ctx, resolved.real, stat.size) ? [] : undefined;
  let headTaken = false;
  const into = (size: number) => (headTaken && !kept ? newlines.chunkMemory(size) : undefined);
  const stream = ops.openRead(resolved.absolute, { signal, into })[Symbol.asyncIterator]();
  let finished = false;
  try {
    const head = await readHead(stream, SNIFF_BYTES);
    headTaken = true;
    const sniffed = sniffFileType(head.bytes);
    if (sniffed.kind === "binary") {
      throw new ToolError(
        "binary_file",
        `${resolved.display} is a binary file (${sniffed.description}, ${formatBytes(stat.size)}); read shows text only.${hintFor(ctx, [["bash", " Inspect it with bash (e.g. file, xxd | head) if you need to."]], " Ask the user if you need to know what it holds.")}`,
        { details: { path: resolved.display, type: sniffed.description, size: stat.size } },
      );
    }
    if (sniffed.kind === "image") {
      await stream.return?.();
      finished = true;
      return await readImage(ctx, resolved, sniffed.mimeType, stat.size, signal);
    }
    const startLine = params.offset ?? 1;
    const lineLimit = Math.min(params.limit ?? limits.maxLines, limits.maxLines);
    const rest = head.done ? emptyStream() : { [Symbol.asyncIterator]: () => stream };
    // The stat was taken before the read: a change during it leaves a record that no longer
    // matches, never one that matches a content the model did not see.
    const hashWholeFile = stat.size <= limits.wholeHashMaxBytes;
    const window = await readLineWindow(head.bytes, kept ? keeping(rest, kept) : rest, {
      startLine,
      maxLines: lineLimit,
      maxBytes: limits.maxBytes,
      maxLineBytes: limits.maxBytes,
      hashWholeFile,
      newlines,
    });
    finished = true;
    const result = formatText(resolved, window, startLine, lineLimit, limits, hasTool(ctx, "bash"));
    // The model usually edits what it reads: parse it now, off this call's path (see parse-after-read.ts).
    if (kept) parseAfterRead(ctx, resolved.real, [head.bytes, ...kept]);
    // Only a read that showed content counts as having seen the file (not an offset past its end).
    if (window.sha256 !== undefined) ctx.reads.record(resolved.real, window.sha256);
    else {
      const { start, end, sha256 } = window.window;
      ctx.reads.record(resolved.real, sha256, { start, end, size: stat.size, mtimeMs: stat.mtimeMs });
    }
    return result;
  } finally {
    if (!finished) await stream.return?.().catch(() => {});
  }
}

function formatText(
  resolved: ResolvedPath,
  window: Awaited<ReturnType<typeof readLineWindow>>,
  startLine: number,
  lineLimit: number,
  limits: { maxLines: number; maxBytes: number },
  /** The model has bash: notices then say how to see or change what read cannot show. */
  bash: boolean,
) {
  const total = window.totalLines;
  if (startLine > Math.max(total, 1)) {
    throw new ToolError(
      "invalid_arguments",
      `offset ${startLine} is past the end of ${resolved.display}: it has ${total} line${total === 1 ? "" : "s"}. Use an offset from 1 to ${Math.max(total, 1)}.`,
      { details: { path: resolved.display, totalLines: total } },
    );
  }
  // Limits count the file's own text; the line-number prefixes come on top.
  const cut = truncateHeadLines(window.lines, { maxLines: lineLimit, maxBytes: limits.maxBytes });
  const shown = cut.outputLines;
  const endLine = startLine + shown - 1;
  const notices: string[] = [];
  const cutInView = [...window.cutLines.keys()].filter((line) => line >= startLine && line <= endLine);
  for (const line of cutInView) {
    notices.push(
      `Line ${line} is ${window.cutLines.get(line)} characters; only its first ${formatBytes(limits.maxBytes)} is shown.${bash ? ` See the rest with bash, e.g. sed -n '${line}p' ${resolved.display} | cut -c1-2000.` : ""}`,
    );
  }
  const encodingName = encodingLabel(window.encoding);
  if (window.lossy)
    notices.push(
      `The file is not valid ${encodingName}; invalid bytes are shown as U+FFFD. edit refuses such a file and write would replace those bytes${bash ? ": change it with bash if you must" : ""}.`,
    );
  if (window.encoding !== "utf8") notices.push(`Decoded from ${encodingName}.`);
  let text: string;
  let truncatedBy: "lines" | "bytes" | null = null;
  let sanitized: SanitizedDetails | undefined;
  let notice: string | undefined;
  if (total === 0) {
    text = `(${resolved.display} is empty)`;
  } else if (shown === 0) {
    // Only a line longer than the byte limit gets here; readLineWindow already cut it to fit.
    text = `(line ${startLine} of ${resolved.display} does not fit in ${formatBytes(limits.maxBytes)})`;
  } else {
    // File text is untrusted: made safe after the limits (which count the file's own text) so
    // line numbers, totals and continuation hints stay those of the file.
    const safe = sanitizeLines(window.lines.slice(0, shown), redactionSourceOf(resolved.display));
    sanitized = sanitizedDetails(safe);
    notice = sanitizeNotice(safe, bash ? `bash with cat -v ${resolved.display} shows them` : undefined);
    text = markUntrusted(formatNumberedLines(safe.lines, startLine).join("\n"), "read");
    if (endLine < total) {
      truncatedBy = cut.truncatedBy ?? "lines";
      const why = cut.truncatedBy === "bytes" ? ` (${formatBytes(limits.maxBytes)} limit)` : "";
      notices.push(
        `Showing lines ${startLine}-${endLine} of ${total}${why}. Use offset=${endLine + 1} to continue.`,
      );
    }
    // "5\t" alone looks like a failure: say the window holds only empty lines.
    if (window.lines.slice(0, shown).every((line) => line === "")) {
      notices.push(shown === 1 ? `Line ${startLine} is empty.` : `Lines ${startLine}-${endLine} are empty.`);
    }
  }
  if (notice) notices.push(notice);
  const content = notices.length > 0 ? `${text}\n\n[${notices.join(" ")}]` : text;
  const details: ReadDetails = {
    path: resolved.display,
    real: resolved.real,
    kind: "text",
    startLine,
    endLine: Math.max(endLine, startLine - 1),
    totalLines: total,
    totalBytes: window.totalBytes,
    encoding: window.encoding,
    hasBom: window.hasBom,
    lossy: window.lossy,
    truncatedBy,
    cutLines: cutInView,
    ...(sanitized ? { sanitized } : {}),
  };
  return { content: [{ type: "text", text: content } satisfies TextContent], details };
}

async function readImage(
  ctx: ExtensionContext,
  resolved: ResolvedPath,
  mimeType: string,
  size: number,
  signal: AbortSignal | undefined,
) {
  if (size > READ_IMAGE_MAX_BYTES) {
    throw new ToolError(
      "too_large",
      `${resolved.display} is a ${formatBytes(size)} image; read returns images up to ${formatBytes(READ_IMAGE_MAX_BYTES)}.${hintFor(ctx, [["bash", " Make a smaller copy with bash and read that."]], " Ask the user for a smaller copy if you need it.")}`,
    );
  }
  const bytes = await ctx.operations.readFile(resolved.absolute, { signal, maxBytes: READ_IMAGE_MAX_BYTES });
  recordRead(ctx, resolved.real, bytes);
  const image: ImageContent = { type: "image", data: Buffer.from(bytes).toString("base64"), mimeType };
  const details: ReadDetails = {
    path: resolved.display,
    real: resolved.real,
    kind: "image",
    totalBytes: bytes.length,
    mimeType,
  };
  return {
    content: [
      {
        type: "text",
        text: `Image ${resolved.display} (${mimeType}, ${formatBytes(bytes.length)}):`,
      } satisfies TextContent,
      image,
    ],
    details,
  };
}

async function notFound(
  ctx: ExtensionContext,
  resolved: ResolvedPath,
  signal: AbortSignal | undefined,
): Promise<ToolError> {
  const hint = await explainMissingPath(ctx, resolved.absolute, signal);
  const next =
    hint.text === ""
      ? hintFor(
          ctx,
          [
            [
              "find",
              hasTool(ctx, "ls") ? " Use find or ls to see what exists." : " Use find to see what exists.",
            ],
            ["ls", " Use ls to see what exists."],
            ["bash", " List the directory with bash (ls) to see what exists."],
          ],
          " Send the path of an existing file.",
        )
      : hint.text;
  return new ToolError("not_found", `File not found: ${resolved.display}.${next}`, {
    details: {
      path: resolved.display,
      suggestions: hint.suggestions,
      ...(hint.danglingTarget !== undefined ? { danglingTarget: hint.danglingTarget } : {}),
    },
  });
}

/** Takes chunks from `stream` until `size` bytes (or the end) for sniffing. */
async function readHead(
  stream: AsyncIterator<Uint8Array>,
  size: number,
): Promise<{ bytes: Uint8Array; done: boolean }> {
  const parts: Uint8Array[] = [];
  let length = 0;
  while (length < size) {
    const next = await stream.next();
    if (next.done) return { bytes: concat(parts, length), done: true };
    parts.push(next.value);
    length += next.value.length;
  }
  return { bytes: concat(parts, length), done: false };
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function* emptyStream(): AsyncGenerator<Uint8Array> {}

/** `rest`, with each chunk also pushed to `kept` (chunks read without `into` are the reader's to keep). */
async function* keeping(rest: AsyncIterable<Uint8Array>, kept: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for await (const chunk of rest) {
    kept.push(chunk);
    yield chunk;
  }
}
