/**
 * The find tool: file paths matching a glob, through the environment's native listing when it
 * has one (ripgrep locally) and the portable walk otherwise, with the same results either way.
 */

import { boundText, quoteInput, type TextContent, ToolError } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ExtensionContext, ToolDefinition } from "@tackle/extensions";
import { isOperationError } from "@tackle/operations";
import { pathSyntax } from "@tackle/session";
import { DEFAULTS, formatBytes } from "../defaults.js";
import { collectFiles } from "../search/collect.js";
import { resultPathDisplay } from "../search/result-paths.js";
import { ScanCloses } from "../search/scan-closes.js";
import { searchFor } from "../search/search-for.js";
import {
  markUntrusted,
  type SanitizedDetails,
  sanitizedDetails,
  sanitizeLines,
  sanitizeNotice,
} from "../text/untrusted.js";
import { ENGINE_MESSAGE_CHARS, refuseNulByte, toToolError } from "../tool-errors.js";
import { hasTool } from "../tool-names.js";
import { checkOptions, defaultLimitWithin } from "../tool-options.js";
import { truncateHead } from "../truncate.js";

/** find's parameters; the `limit` description states the default and cap in force. */
function findParametersFor(defaultLimit: number, maxLines: number) {
  return Type.Object({
    pattern: Type.String({
      maxLength: DEFAULTS.searchPatternMaxChars,
      description:
        "Glob for file paths: without '/' it matches file names at any depth ('*.ts'); with '/' the path under `path` ('src/**/*.test.ts').",
    }),
    path: Type.Optional(Type.String({ description: "Directory to search. Default: the working directory." })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `Most paths to return. Default ${defaultLimit}, at most ${maxLines}.`,
      }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, description: "Paths to skip, to continue a cut result. Default 0." }),
    ),
  });
}

const findParameters = findParametersFor(DEFAULTS.findLimit, DEFAULTS.maxLines);

/** Arguments of the find tool. */
export type FindParams = Static<typeof findParameters>;

/** What the find tool reports to hosts. */
export interface FindDetails {
  pattern: string;
  /** Searched path as shown to the model. */
  path: string;
  /** `native` when the environment's listing ran, `portable` for the built-in walk. */
  engine: "native" | "portable";
  offset: number;
  limit: number;
  /** Paths on this page. */
  count: number;
  /** Offset of the next page when more paths exist. */
  nextOffset?: number;
  /** Which limit cut the whole output, or null. */
  truncatedBy: "lines" | "bytes" | null;
  /** Paths that had control characters removed or secrets redacted (absent when none). */
  sanitized?: SanitizedDetails;
}

/** Options for {@link createFindToolDefinition}. */
export interface FindToolOptions {
  /** Paths per call unless the model asks otherwise (default `DEFAULTS.findLimit`). */
  defaultLimit?: number;
  /** Lines and bytes of the whole output (defaults from `DEFAULTS`). */
  maxLines?: number;
  maxBytes?: number;
}

/** Creates the find tool. Its environment comes from the context of each call. */
export function createFindToolDefinition(
  options: FindToolOptions = {},
): ToolDefinition<typeof findParameters, FindDetails> {
  checkOptions("find tool", options, {
    defaultLimit: "positive-integer",
    maxLines: "positive-integer",
    maxBytes: "positive-integer",
  });
  const maxLines = options.maxLines ?? DEFAULTS.maxLines;
  const limits = {
    defaultLimit: defaultLimitWithin("find tool", options.defaultLimit, DEFAULTS.findLimit, maxLines),
    maxLines,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
  };
  return {
    name: "find",
    label: "Find",
    description: [
      "Find files by glob pattern, e.g. '*.ts' (file names at any depth) or 'src/**/*.test.ts' (paths under path).",
      "Respects .gitignore, includes hidden files, skips .git; lists files, not directories (use ls for those).",
      "Returns one path per line, relative to the working directory, sorted.",
      `Returns at most ${limits.defaultLimit} paths (limit to change); the output stops at ${limits.maxLines} lines or ${formatBytes(limits.maxBytes)}.`,
      "When results are cut it says which offset continues them. Use grep to search file contents.",
    ].join(" "),
    promptSnippet: "find: list files matching a glob (respects .gitignore)",
    parameters: findParametersFor(limits.defaultLimit, limits.maxLines),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      refuseNulByte("pattern", params.pattern);
      const resolved = await ctx.workspace.resolve(params.path ?? ".", "read", { signal });
      try {
        return await runFind(ctx, resolved.absolute, resolved.display, params, limits, signal);
      } catch (error) {
        throw toToolError(error, resolved.display);
      }
    },
  };
}

async function runFind(
  ctx: ExtensionContext,
  absolute: string,
  display: string,
  params: FindParams,
  limits: { defaultLimit: number; maxLines: number; maxBytes: number },
  signal: AbortSignal | undefined,
) {
  const ops = ctx.operations;
  const syntax = pathSyntax(ops.platform);
  const offset = params.offset ?? 0;
  // More than the output can show (one line each) would only be collected to be cut.
  const limit = Math.min(params.limit ?? limits.defaultLimit, limits.maxLines);
  const stat = await ops.stat(absolute, { signal });
  const isFile = stat.type !== "directory";
  const search = searchFor(ops);
  const engine = search.engine;
  // One path past the page tells whether more exist.
  const wanted = offset + limit + 1;
  // A scan left early ends while the page is laid out; the answer waits for it (see ScanCloses).
  const closes = new ScanCloses();
  try {
    const found = await collectFiles(
      search,
      { path: absolute, glob: params.pattern },
      wanted,
      signal,
      engine === "portable",
      closes,
    ).catch((error: unknown) => {
      // The path was checked above: what the search itself refuses is the glob.
      if (!isOperationError(error, "invalid_argument")) throw error;
      throw new ToolError(
        "invalid_arguments",
        `Invalid glob ${quoteInput(params.pattern)}: ${boundText(error.message, ENGINE_MESSAGE_CHARS)}. Send pattern as a glob such as '*.ts' or 'src/**/*.test.ts' (escape a literal [ ] { } * ? with a backslash).`,
        { cause: error, details: { pattern: params.pattern } },
      );
    });
    const page = found.slice(offset, offset + limit);
    const hasMore = found.length > offset + limit;
    const details: FindDetails = {
      pattern: params.pattern,
      path: display,
      engine,
      offset,
      limit,
      count: page.length,
      truncatedBy: null,
    };
    if (page.length === 0) {
      const text =
        offset > 0 && found.length > 0
          ? `No paths at offset ${offset}: only ${found.length} files match ${quoteInput(params.pattern)} in ${display}.`
          : `No files match ${quoteInput(params.pattern)} in ${display}.`;
      return { content: [{ type: "text", text } satisfies TextContent], details };
    }
    // Names are untrusted too: a crafted name must not carry escapes or fake lines into the output.
    const shown = isFile ? () => display : resultPathDisplay(syntax, ctx.cwd, absolute);
    const safe = sanitizeLines(page.map(shown));
    const sanitized = sanitizedDetails(safe);
    if (sanitized) details.sanitized = sanitized;
    const cut = truncateHead(safe.lines.join("\n"), { maxLines: limits.maxLines, maxBytes: limits.maxBytes });
    const notices: string[] = [];
    const narrow = "or narrow the search with path or a more specific pattern.";
    if (cut.truncated) {
      const shown = cut.outputLines;
      details.truncatedBy = cut.truncatedBy;
      details.nextOffset = offset + shown;
      const by = cut.truncatedBy === "bytes" ? formatBytes(limits.maxBytes) : `${limits.maxLines} lines`;
      notices.push(
        `Output cut at ${by}: showing paths ${offset + 1}-${offset + shown}. Use offset=${offset + shown} to see more, ${narrow}`,
      );
    } else if (hasMore) {
      details.nextOffset = offset + page.length;
      notices.push(
        `Showing paths ${offset + 1}-${offset + page.length}; more exist. Use offset=${offset + page.length} to see more, ${narrow}`,
      );
    }
    const bash = hasTool(ctx, "bash");
    const notice = sanitizeNotice(
      safe,
      bash ? "bash with ls -b on the directory shows such names escaped" : undefined,
    );
    if (notice) notices.push(notice);
    const body = markUntrusted(cut.content, "find");
    const text = notices.length > 0 ? `${body}\n\n[${notices.join(" ")}]` : body;
    return { content: [{ type: "text", text } satisfies TextContent], details };
  } finally {
    await closes.settled();
  }
}
