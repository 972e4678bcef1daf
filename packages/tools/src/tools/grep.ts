/**
 * The grep tool: regular-expression (or literal) search over a file or a directory tree, through
 * the environment's native search when it has one (ripgrep locally) and the portable walk
 * otherwise, with the same results either way.
 */

import type { TextContent } from "@tackle/agent-core";
import { boundText, quoteInput, ToolError } from "@tackle/agent-core";
import { type Static, Type } from "@tackle/agent-core/typebox";
import type { ExtensionContext, ToolDefinition } from "@tackle/extensions";
import { isOperationError } from "@tackle/operations";
import { pathSyntax, redactionSourceOf } from "@tackle/session";
import { DEFAULTS, formatBytes } from "../defaults.js";
import { collectGrepEvents } from "../search/collect.js";
import { pageGrepEvents } from "../search/grep-page.js";
import { resultPathDisplay } from "../search/result-paths.js";
import { ScanCloses } from "../search/scan-closes.js";
import { searchFor } from "../search/search-for.js";
import {
  markUntrusted,
  mergeSafeLines,
  type SanitizedDetails,
  sanitizedDetails,
  sanitizeLines,
  sanitizeNotice,
} from "../text/untrusted.js";
import { ENGINE_MESSAGE_CHARS, refuseNulByte, specialFileError, toToolError } from "../tool-errors.js";
import { hasTool, hintFor } from "../tool-names.js";
import { checkOptions, defaultLimitWithin } from "../tool-options.js";
import { truncateHead, truncateLine } from "../truncate.js";

/**
 * Characters past the shown line length the engine still sends: secret redaction runs before
 * the cut, so a secret that straddles the cut must arrive whole (token shapes are shorter).
 */
const SECRET_MARGIN_CHARS = 1024;

/** grep's parameters; the `limit` description states the default and cap in force. */
function grepParametersFor(defaultLimit: number, maxLines: number) {
  return Type.Object({
    pattern: Type.String({
      maxLength: DEFAULTS.searchPatternMaxChars,
      description: "Regular expression (JavaScript/ripgrep syntax) to find, or plain text with literal=true.",
    }),
    path: Type.Optional(
      Type.String({ description: "Directory or file to search. Default: the working directory." }),
    ),
    glob: Type.Optional(
      Type.String({
        maxLength: DEFAULTS.searchPatternMaxChars,
        description: "Only files matching this glob, e.g. '*.ts' (any depth) or 'src/**/*.test.ts'.",
      }),
    ),
    ignoreCase: Type.Optional(Type.Boolean({ description: "Match case-insensitively. Default false." })),
    literal: Type.Optional(
      Type.Boolean({ description: "Treat pattern as plain text, not a regex. Default false." }),
    ),
    context: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: DEFAULTS.grepMaxContext,
        description: `Lines to show before and after each match. Default 0, at most ${DEFAULTS.grepMaxContext}.`,
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `Most matches to return. Default ${defaultLimit}, at most ${maxLines}.`,
      }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, description: "Matches to skip, to continue a cut result. Default 0." }),
    ),
  });
}

const grepParameters = grepParametersFor(DEFAULTS.grepLimit, DEFAULTS.maxLines);

/** Arguments of the grep tool. */
export type GrepParams = Static<typeof grepParameters>;

/** What the grep tool reports to hosts. */
export interface GrepDetails {
  pattern: string;
  /** Searched path as shown to the model. */
  path: string;
  /** `native` when the environment's search ran, `portable` for the built-in walk. */
  engine: "native" | "portable";
  offset: number;
  limit: number;
  /** Matches and files on this page. */
  matches: number;
  files: number;
  /** Offset of the next page when more matches exist. */
  nextOffset?: number;
  /** Lines longer than the line limit that were cut. */
  linesCut: number;
  /** Which limit cut the whole output, or null. */
  truncatedBy: "lines" | "bytes" | null;
  /** Lines that had control characters removed or secrets redacted (absent when none). */
  sanitized?: SanitizedDetails;
}

/** Options for {@link createGrepToolDefinition}. */
export interface GrepToolOptions {
  /** Matches per call unless the model asks otherwise (default `DEFAULTS.grepLimit`). */
  defaultLimit?: number;
  /** Characters kept of one line (default `DEFAULTS.grepMaxLineLength`). */
  maxLineLength?: number;
  /** Lines and bytes of the whole output (defaults from `DEFAULTS`). */
  maxLines?: number;
  maxBytes?: number;
}

/** Creates the grep tool. Its environment comes from the context of each call. */
export function createGrepToolDefinition(
  options: GrepToolOptions = {},
): ToolDefinition<typeof grepParameters, GrepDetails> {
  checkOptions("grep tool", options, {
    defaultLimit: "positive-integer",
    maxLineLength: "positive-integer",
    maxLines: "positive-integer",
    maxBytes: "positive-integer",
  });
  const maxLines = options.maxLines ?? DEFAULTS.maxLines;
  const limits = {
    defaultLimit: defaultLimitWithin("grep tool", options.defaultLimit, DEFAULTS.grepLimit, maxLines),
    maxLineLength: options.maxLineLength ?? DEFAULTS.grepMaxLineLength,
    maxLines,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
  };
  return {
    name: "grep",
    label: "Grep",
    description: [
      "Search file contents for a regular expression (or plain text with literal=true) under a directory or in one file.",
      "Respects .gitignore, includes hidden files, skips .git and binary files.",
      "Returns `path:line: text` for matches and `path-line- text` for context lines, sorted by path and line, paths relative to the working directory.",
      `Returns at most ${limits.defaultLimit} matches (limit to change) and cuts lines at ${limits.maxLineLength} characters;`,
      `the whole output stops at ${limits.maxLines} lines or ${formatBytes(limits.maxBytes)}.`,
      "When results are cut it says which offset continues them. Use find to search file names, read to see a match in full.",
    ].join(" "),
    promptSnippet: "grep: search file contents by regex or literal text (respects .gitignore)",
    parameters: grepParametersFor(limits.defaultLimit, limits.maxLines),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      refuseNulByte("pattern", params.pattern);
      refuseNulByte("glob", params.glob);
      const resolved = await ctx.workspace.resolve(params.path ?? ".", "read", { signal });
      try {
        return await runGrep(ctx, resolved.absolute, resolved.display, params, limits, signal);
      } catch (error) {
        if (isOperationError(error, "invalid_argument")) {
          throw new ToolError(
            "invalid_arguments",
            refusedPatternMessage(params, boundText(error.message, ENGINE_MESSAGE_CHARS)),
            { cause: error, details: { pattern: params.pattern } },
          );
        }
        throw toToolError(error, resolved.display);
      }
    },
  };
}

/**
 * The search engine refused the pattern (or the glob: the engine says which only in its text,
 * so with a glob both are named, each with what to send instead).
 */
function refusedPatternMessage(params: GrepParams, engineMessage: string): string {
  const regex =
    "Send a valid regular expression (escape ( [ { * + ? with a backslash), or call grep again with literal=true to search for the text exactly as written";
  if (params.glob === undefined) {
    return `Invalid regular expression ${quoteInput(params.pattern)}: ${engineMessage}. ${regex}.`;
  }
  return `Invalid regular expression ${quoteInput(params.pattern)} or glob ${quoteInput(params.glob)}: ${engineMessage}. ${regex}; send glob as a glob such as '*.ts' or 'src/**/*.test.ts'.`;
}

async function runGrep(
  ctx: ExtensionContext,
  absolute: string,
  display: string,
  params: GrepParams,
  limits: { defaultLimit: number; maxLineLength: number; maxLines: number; maxBytes: number },
  signal: AbortSignal | undefined,
) {
  const ops = ctx.operations;
  const syntax = pathSyntax(ops.platform);
  const offset = params.offset ?? 0;
  // More than the output can show (one line each) would only be collected to be cut.
  const limit = Math.min(params.limit ?? limits.defaultLimit, limits.maxLines);
  const context = params.context ?? 0;
  const stat = await ops.stat(absolute, { signal });
  // ripgrep (and the portable walk) would open a path given by name whatever its type.
  if (stat.type === "other") throw specialFileError(display);
  const isFile = stat.type !== "directory";
  const search = searchFor(ops);
  const engine = search.engine;
  // One match past the page tells whether more exist; collectGrepEvents also keeps the context
  // after the page's last match, which may hold further matches (shown as context).
  const wanted = offset + limit + 1;
  const request = {
    pattern: params.pattern,
    path: absolute,
    ignoreCase: params.ignoreCase === true,
    literal: params.literal === true,
    context,
    // The engine cuts long lines itself (a 100 MB line must not travel or be held); the margin
    // keeps a secret that straddles the shown length whole for redaction before the final cut.
    maxLineLength: limits.maxLineLength + SECRET_MARGIN_CHARS,
    ...(params.glob ? { glob: params.glob } : {}),
  };
  // Results in path order can be stopped early: the portable walk's, or any engine's in one file.
  const ordered = engine === "portable" || isFile;
  // A scan left early ends while the page is laid out; the answer waits for it (see ScanCloses).
  const closes = new ScanCloses();
  try {
    const events = await collectGrepEvents(search, request, wanted, signal, ordered, closes);
    const matches = events.filter((event) => event.type === "match").length;
    const page = pageGrepEvents(events, offset, limit, context);
    const toDisplay = isFile ? () => display : resultPathDisplay(syntax, ctx.cwd, absolute);
    let linesCut = 0;
    const lines: string[] = [];
    const matchLine: number[] = [];
    // File text is untrusted: made safe before cutting, so a cut cannot split a secret out of its shape.
    const safe = mergeSafeLines(
      sanitizeLines(
        page.lines.map((line) => line.line.replace(/\r?\n$|\r$/, "")),
        page.lines.map((line) => redactionSourceOf(line.path)),
      ),
      sanitizeLines(page.lines.map((line) => toDisplay(line.path))),
    );
    page.lines.forEach((line, i) => {
      if (line.gapBefore && context > 0) lines.push("--");
      const cut = truncateLine(safe.lines[i] as string, limits.maxLineLength);
      if (cut.truncated || line.truncated) linesCut++;
      // A line the engine cut is longer than what it sent; how much longer is not known.
      const more = line.truncated
        ? `over ${cut.totalChars - cut.text.length} more characters`
        : `${cut.totalChars - cut.text.length} more characters`;
      const text = cut.truncated || line.truncated ? `${cut.text}… [${more}]` : cut.text;
      if (line.kind === "match") matchLine.push(lines.length);
      lines.push(
        `${safe.lines[page.lines.length + i]}${line.kind === "match" ? ":" : "-"}${line.lineNumber}${line.kind === "match" ? ":" : "-"} ${text}`,
      );
    });
    const details: GrepDetails = {
      pattern: params.pattern,
      path: display,
      engine,
      offset,
      limit,
      matches: page.matches,
      files: page.files,
      linesCut,
      truncatedBy: null,
    };
    const sanitized = sanitizedDetails(safe);
    if (sanitized) details.sanitized = sanitized;
    if (page.matches === 0) {
      const where = params.glob ? `${display} (files matching ${quoteInput(params.glob)})` : display;
      const text =
        offset > 0 && matches > 0
          ? `No matches at offset ${offset}: there are only ${matches} matches for ${quoteInput(params.pattern)} in ${where}.`
          : `No matches for ${quoteInput(params.pattern)} in ${where}.`;
      return { content: [{ type: "text", text } satisfies TextContent], details };
    }
    const cut = truncateHead(lines.join("\n"), { maxLines: limits.maxLines, maxBytes: limits.maxBytes });
    const notices: string[] = [];
    const first = offset + 1;
    if (cut.truncated) {
      // Continue after the last match whose line made it into the output.
      const shown = matchLine.filter((index) => index < cut.outputLines).length;
      details.truncatedBy = cut.truncatedBy;
      const by = cut.truncatedBy === "bytes" ? formatBytes(limits.maxBytes) : `${limits.maxLines} lines`;
      if (shown === 0) {
        // Only context lines fit: an offset would not move forward, so ask for less context.
        notices.push(`Output cut at ${by} before the first match; call again with a smaller context.`);
      } else {
        details.nextOffset = offset + shown;
        notices.push(
          `Output cut at ${by}: showing matches ${first}-${offset + shown}. Use offset=${offset + shown} to see more, or narrow the search with path, glob or a more specific pattern.`,
        );
      }
    } else if (page.hasMore) {
      details.nextOffset = offset + page.matches;
      notices.push(
        `Showing matches ${first}-${offset + page.matches}; more exist. Use offset=${offset + page.matches} to see more, or narrow the search with path, glob or a more specific pattern.`,
      );
    }
    if (linesCut > 0) {
      notices.push(
        `${linesCut} line${linesCut === 1 ? " was" : "s were"} longer than ${limits.maxLineLength} characters and cut${hintFor(ctx, [["read", "; use read with offset to see a line in full"]])}.`,
      );
    }
    const bash = hasTool(ctx, "bash");
    const notice = sanitizeNotice(
      safe,
      bash ? `bash with cat -v ${isFile ? display : "on the file"} shows them` : undefined,
    );
    if (notice) notices.push(notice);
    const body = markUntrusted(cut.content, "grep");
    const text = notices.length > 0 ? `${body}\n\n[${notices.join(" ")}]` : body;
    return { content: [{ type: "text", text } satisfies TextContent], details };
  } finally {
    await closes.settled();
  }
}
