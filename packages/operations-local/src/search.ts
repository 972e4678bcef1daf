import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { basename, dirname, sep } from "node:path";
import {
  type CallOptions,
  type FilesRequest,
  type GrepEvent,
  type GrepRequest,
  OperationError,
  type SearchOperations,
  throwIfAborted,
  toOperationError,
} from "@tackle/operations";
import { checkPath } from "./guard.js";
import { ripgrepBatches } from "./ripgrep-process.js";

/**
 * Flags of every run. `--no-require-git`: .gitignore files count even outside a git work tree
 * (a fresh scaffold, a copied checkout), as the portable walk in @tackle/tools does. A nested
 * repository's own .gitignore applies inside it. `--no-config`: a user's RIPGREP_CONFIG_PATH
 * must not change what tools see.
 */
const COMMON_ARGS = ["--hidden", "--no-require-git", "--no-config", "--glob", "!.git"];

/** Path of the ripgrep binary shipped by `@vscode/ripgrep` (its platform package). */
export async function bundledRgPath(): Promise<string> {
  try {
    return (await import("@vscode/ripgrep")).rgPath;
  } catch (error) {
    throw new OperationError("not_supported", "search: @vscode/ripgrep ships no binary for this platform", {
      operation: "search",
      cause: error,
    });
  }
}

/** `search` on ripgrep: `rgPath` when the host passes one, else the bundled binary. */
export function createRipgrepSearch(rgPath?: string): SearchOperations {
  const binary = () => (rgPath ? Promise.resolve(rgPath) : bundledRgPath());
  return {
    grep: (request, options) => grep(binary, request, options),
    files: (request, options) => files(binary, request, options),
  };
}

async function* grep(
  binary: () => Promise<string>,
  request: GrepRequest,
  options: CallOptions = {},
): AsyncGenerator<GrepEvent> {
  const root = await searchRoot(request.path, "grep", options.signal);
  const args = ["--json", ...COMMON_ARGS, request.ignoreCase ? "--ignore-case" : "--case-sensitive"];
  if (request.literal) args.push("--fixed-strings");
  if (request.context) args.push("--context", String(request.context));
  if (request.glob) args.push("--glob", request.glob);
  if (request.includeIgnored) args.push("--no-ignore");
  args.push("--regexp", request.pattern, "--", root.target);
  const limit = request.maxMatches ?? Number.POSITIVE_INFINITY;
  if (limit <= 0) return;
  let found = 0;
  const run = {
    rgPath: await binary(),
    args,
    separator: "\n" as const,
    operation: "grep",
    path: request.path,
  };
  for await (const batch of ripgrepBatches({ ...run, cwd: root.cwd, signal: options.signal })) {
    for (const record of batch) {
      const event = parseGrepRecord(record);
      if (!event) continue;
      throwIfAborted(options.signal, "grep");
      yield event;
      // Returning ends the loop above, whose cleanup kills rg: no draining past the limit.
      if (event.type === "match" && ++found >= limit) return;
    }
  }
}

async function* files(
  binary: () => Promise<string>,
  request: FilesRequest,
  options: CallOptions = {},
): AsyncGenerator<string> {
  const root = await searchRoot(request.path, "files", options.signal);
  const args = ["--files", "--null", ...COMMON_ARGS];
  if (request.glob) args.push("--glob", request.glob);
  if (request.includeIgnored) args.push("--no-ignore");
  args.push("--", root.target);
  const limit = request.limit ?? Number.POSITIVE_INFINITY;
  if (limit <= 0) return;
  let count = 0;
  const run = {
    rgPath: await binary(),
    args,
    separator: "\0" as const,
    operation: "files",
    path: request.path,
  };
  for await (const batch of ripgrepBatches({ ...run, cwd: root.cwd, signal: options.signal })) {
    for (const record of batch) {
      throwIfAborted(options.signal, "files");
      yield relativePath(record);
      if (++count >= limit) return;
    }
  }
}

/**
 * Where rg runs and what it is given. rg runs inside the requested directory and searches "./",
 * so a glob with a `/` is anchored at the request path (rg matches globs relative to its cwd)
 * and output paths only lose a "./". A file is searched from its directory by name.
 */
interface SearchRoot {
  cwd: string;
  target: string;
}

async function searchRoot(
  path: string,
  operation: string,
  signal: AbortSignal | undefined,
): Promise<SearchRoot> {
  checkPath(path, operation);
  if (signal?.aborted) throw new OperationError("aborted", `${operation} aborted`, { operation });
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
    // rg skips an unreadable path with a message and exit code 2 like any partial failure; the
    // root itself being unreadable is the caller's error, so check it here.
    await access(path, isDirectory ? constants.R_OK | constants.X_OK : constants.R_OK);
  } catch (error) {
    throw toOperationError(error, { operation, path });
  }
  return isDirectory ? { cwd: path, target: "./" } : { cwd: dirname(path), target: basename(path) };
}

/** rg's path for `./x/y` is `x/y`, request-relative with POSIX separators. */
function relativePath(rgPath: string): string {
  const posix = sep === "/" ? rgPath : rgPath.replaceAll(sep, "/");
  return posix.startsWith("./") ? posix.slice(2) : posix;
}

interface RgText {
  text?: string;
  bytes?: string;
}

/** One `--json` record as a `GrepEvent`; begin/end/summary records give `undefined`. */
function parseGrepRecord(record: string): GrepEvent | undefined {
  if (!record.startsWith('{"type":"match"') && !record.startsWith('{"type":"context"')) return undefined;
  const { type, data } = JSON.parse(record) as {
    type: "match" | "context";
    data: { path: RgText; lines: RgText; line_number: number };
  };
  const line = decodeText(data.lines).replace(/\r?\n$/, "");
  return { type, path: relativePath(decodeText(data.path)), lineNumber: data.line_number, line };
}

/** rg gives text as `{text}` when it is UTF-8 and as base64 `{bytes}` when it is not. */
function decodeText(value: RgText): string {
  if (value.text !== undefined) return value.text;
  return Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}
