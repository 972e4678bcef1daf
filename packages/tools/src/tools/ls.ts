/**
 * The ls tool: one directory, sorted, with `/` after directories, link targets, sizes and
 * hidden entries; entries the ignore files exclude are counted, not listed, unless asked.
 */

import type { TextContent } from "@tackle/agent-core";
import { ToolError } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ExtensionContext, ToolDefinition } from "@tackle/extensions";
import { type DirEntry, isOperationError, isTempFileName, isWriteLockName } from "@tackle/operations";
import { pathSyntax } from "@tackle/session";
import { DEFAULTS, formatBytes } from "../defaults.js";
import { compareCodePoints } from "../search/compare-paths.js";
import { loadIgnoreFrames } from "../search/ignore-frames.js";
import { isIgnored } from "../search/ignore-rules.js";
import { linkedSignal } from "../search/linked-signal.js";
import {
  markUntrusted,
  type SanitizedDetails,
  sanitizedDetails,
  sanitizeLines,
  sanitizeNotice,
} from "../text/untrusted.js";
import { toToolError } from "../tool-errors.js";
import { hasTool, hintFor } from "../tool-names.js";
import { checkOptions } from "../tool-options.js";
import { truncateHead } from "../truncate.js";

const lsParameters = Type.Object({
  path: Type.Optional(
    Type.String({
      description:
        "Directory to list, relative to the working directory or absolute. Default: the working directory.",
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: `Most entries to list. Default ${DEFAULTS.lsLimit}.` }),
  ),
  includeIgnored: Type.Optional(
    Type.Boolean({ description: "Also list entries that .gitignore (or .ignore) excludes." }),
  ),
});

/** Arguments of the ls tool. */
export type LsParams = Static<typeof lsParameters>;

/** One listed entry. */
export interface LsEntry {
  name: string;
  type: "file" | "directory" | "symlink" | "other";
  /** Bytes (files; for links the size of what they point to, when it exists). */
  size?: number;
  /** Link target as stored. */
  target?: string;
  /** Link whose target does not exist. */
  broken?: boolean;
  /** What a link points to. */
  targetType?: "file" | "directory" | "symlink" | "other";
  ignored: boolean;
}

/** What the ls tool reports to hosts. */
export interface LsDetails {
  path: string;
  real: string;
  entries: LsEntry[];
  total: number;
  shown: number;
  ignoredCount: number;
  limit: number;
  /** Lines that had control characters removed or secrets redacted (absent when none). */
  sanitized?: SanitizedDetails;
}

/** Entries stat'ed at once (each is a round trip on remote environments). */
const STAT_CONCURRENCY = 16;

/** Creates the ls tool (it has no options). Its environment comes from the context of each call. */
export function createLsToolDefinition(
  options: Record<string, never> = {},
): ToolDefinition<typeof lsParameters, LsDetails> {
  checkOptions("ls tool", options, {});
  return {
    name: "ls",
    label: "List",
    description: [
      "List one directory: names sorted, directories end in /, links show -> target, files show their size; hidden entries included.",
      `Shows at most ${DEFAULTS.lsLimit} entries by default (limit to change) and ${formatBytes(DEFAULTS.maxBytes)}. Entries ignored by .gitignore are counted, not listed; includeIgnored=true lists them.`,
      "Use find to search a whole tree and read to open a file.",
    ].join(" "),
    promptSnippet: "ls: list a directory (sizes, link targets, hidden entries)",
    parameters: lsParameters,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      const resolved = await ctx.workspace.resolve(params.path ?? ".", "read", { signal });
      const limit = params.limit ?? DEFAULTS.lsLimit;
      try {
        const stat = await ctx.operations.stat(resolved.absolute, { signal });
        if (stat.type !== "directory") {
          throw new ToolError(
            "not_directory",
            `${resolved.display} is a file (${formatBytes(stat.size)}), not a directory.${hintFor(ctx, [["read", " Use read to open it."]], " Send the path of a directory.")}`,
          );
        }
        // Temp files of writes (in progress, or left by a killed writer) are never the model's.
        const raw = (await ctx.operations.readdir(resolved.absolute, { signal })).filter(
          (entry) => !isTempFileName(entry.name) && !isWriteLockName(entry.name),
        );
        raw.sort((a, b) => compareNames(a.name, b.name));
        // Same verdicts as grep and find: this directory's ignore files and every ancestor's.
        const frames = await loadIgnoreFrames(ctx.operations, resolved.absolute, raw, signal);
        const listed: DirEntry[] = [];
        const ignoredNames = new Set<string>();
        for (const entry of raw) {
          const ignored = isIgnored(frames, entry.name, entry.type === "directory");
          if (ignored) ignoredNames.add(entry.name);
          if (!ignored || params.includeIgnored) listed.push(entry);
        }
        const ignoredCount = params.includeIgnored ? 0 : ignoredNames.size;
        const entries = await describeAll(ctx, resolved.absolute, listed.slice(0, limit), signal);
        for (const entry of entries) entry.ignored = ignoredNames.has(entry.name);
        // Names are untrusted: C0 controls are shown escaped (formatEntry); bidi and C1 controls
        // are removed and secret shapes (a credential in a link target) redacted here.
        const safe = sanitizeLines(entries.map(formatEntry));
        const cut = truncateHead(safe.lines.join("\n"), { maxLines: limit, maxBytes: DEFAULTS.maxBytes });
        const shown = cut.outputLines;
        const notices: string[] = [];
        if (shown < listed.length) {
          notices.push(
            `Showing ${shown} of ${listed.length} entries${cut.truncatedBy === "bytes" ? ` (${formatBytes(DEFAULTS.maxBytes)} limit)` : ""}.${hintFor(ctx, [["find", " Use find with a pattern to narrow down"]], " Narrow it down with a subdirectory")}${cut.truncatedBy === "bytes" ? "" : `, or a larger limit`}.`,
          );
        }
        if (ignoredCount > 0) {
          notices.push(
            `${ignoredCount} ignored ${ignoredCount === 1 ? "entry" : "entries"} not listed (includeIgnored=true lists them).`,
          );
        }
        const bash = hasTool(ctx, "bash");
        const notice = sanitizeNotice(safe, bash ? "bash with ls -b shows such names escaped" : undefined);
        if (notice) notices.push(notice);
        const body =
          raw.length === 0
            ? `(${resolved.display} is empty)`
            : listed.length === 0
              ? ""
              : markUntrusted(cut.content, "ls");
        const text = notices.length > 0 ? `${body}${body ? "\n\n" : ""}[${notices.join(" ")}]` : body;
        const details: LsDetails = {
          path: resolved.display,
          real: resolved.real,
          entries: entries.slice(0, shown),
          total: raw.length,
          shown,
          ignoredCount,
          limit,
        };
        const sanitized = sanitizedDetails(safe);
        if (sanitized) details.sanitized = sanitized;
        return { content: [{ type: "text", text } satisfies TextContent], details };
      } catch (error) {
        if (isOperationError(error, "not_found")) {
          throw new ToolError(
            "not_found",
            `Directory not found: ${resolved.display}. ${hintFor(ctx, [["find", "Use ls on its parent or find to see what exists."]], "Use ls on its parent to see what exists.")}`,
          );
        }
        throw toToolError(error, resolved.display);
      }
    },
  };
}

/** Case-insensitive order, ties broken by code point, so the listing is the same everywhere. */
function compareNames(a: string, b: string): number {
  return compareCodePoints(a.toLowerCase(), b.toLowerCase()) || compareCodePoints(a, b);
}

async function describeAll(
  ctx: ExtensionContext,
  dir: string,
  entries: DirEntry[],
  signal: AbortSignal | undefined,
): Promise<LsEntry[]> {
  const syntax = pathSyntax(ctx.operations.platform);
  const out: LsEntry[] = new Array(entries.length);
  let next = 0;
  // The workers' calls listen on one linked signal, not on the caller's: STAT_CONCURRENCY calls
  // at once would put more than ten abort listeners on it, and Node then warns of a leak
  // (MaxListenersExceededWarning on the stderr of an MCP server or an app calling invokeTool).
  const link = linkedSignal(signal);
  const worker = async () => {
    while (next < entries.length) {
      const index = next++;
      out[index] = await describe(ctx, syntax.join(dir, entries[index]!.name), entries[index]!, link.signal);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, entries.length) }, worker));
  } finally {
    link.abort(); // unlinks from the caller's signal; stops the other workers when one failed
  }
  return out;
}

async function describe(
  ctx: ExtensionContext,
  abs: string,
  entry: DirEntry,
  signal: AbortSignal | undefined,
): Promise<LsEntry> {
  const ops = ctx.operations;
  const described: LsEntry = { name: entry.name, type: entry.type, ignored: false };
  try {
    if (entry.type === "symlink") {
      described.target = await ops.readlink(abs, { signal });
      try {
        const target = await ops.stat(abs, { signal });
        described.targetType = target.type;
        if (target.type === "file") described.size = target.size;
      } catch (error) {
        if (!isOperationError(error, "not_found", "not_directory", "permission_denied")) throw error;
        described.broken = true;
      }
    } else if (entry.type === "file") {
      described.size = (await ops.lstat(abs, { signal })).size;
    }
  } catch (error) {
    // An entry that vanished or cannot be inspected is still listed, just without details.
    if (!isOperationError(error, "not_found", "permission_denied", "invalid_argument")) throw error;
  }
  return described;
}

/**
 * Control characters in a name are shown escaped (`\x1b`), so a crafted file name cannot
 * inject terminal escapes or fake lines into the listing.
 */
function visible(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

function formatEntry(entry: LsEntry): string {
  const line = describeEntry({
    ...entry,
    name: visible(entry.name),
    ...(entry.target ? { target: visible(entry.target) } : {}),
  });
  return entry.ignored ? `${line}  (ignored)` : line;
}

function describeEntry(entry: LsEntry): string {
  if (entry.type === "directory") return `${entry.name}/`;
  if (entry.type === "symlink") {
    const suffix = entry.targetType === "directory" ? "/" : "";
    const state = entry.broken
      ? " (broken link)"
      : entry.size !== undefined
        ? `  ${formatBytes(entry.size)}`
        : "";
    return `${entry.name}${suffix} -> ${entry.target ?? "?"}${state}`;
  }
  if (entry.size !== undefined) return `${entry.name}  ${formatBytes(entry.size)}`;
  return entry.type === "other" ? `${entry.name}  (special file)` : entry.name;
}
