import { posix } from "node:path";
import {
  type CallOptions,
  type FilesRequest,
  type GrepEvent,
  type GrepRequest,
  OperationError,
  type SearchOperations,
  throwIfAborted,
} from "@tackle/operations";
import type { ContainerClient } from "./container-client.js";
import type { ContainerFiles } from "./container-files.js";

/**
 * Flags of every run, the same rules as the local adapter: hidden files searched, `.git`
 * skipped, .gitignore honoured even outside a git work tree (nested repositories' too), and no
 * user ripgrep config.
 */
const COMMON_ARGS = ["--hidden", "--no-require-git", "--no-config", "--glob", "!.git"];

/**
 * Starts rg through `sh` so its pid comes first on stdout (`<pid>\n`): stopping early (a limit
 * reached, an abort) then ends rg inside the container with a second exec, instead of leaving
 * it to search on after the stream was closed.
 */
const LAUNCH = 'echo "$$"; exec "$@"';

/**
 * `search` with ripgrep running inside the container (`rgPath` is its path there). Results,
 * paths and error codes follow the same rules as the local adapter's search.
 */
export function createContainerSearch(
  client: ContainerClient,
  files: ContainerFiles,
  rgPath: string,
): SearchOperations {
  return {
    grep: (request, options) => grep(client, files, rgPath, request, options),
    files: (request, options) => listFiles(client, files, rgPath, request, options),
  };
}

async function* grep(
  client: ContainerClient,
  files: ContainerFiles,
  rgPath: string,
  request: GrepRequest,
  options: CallOptions = {},
): AsyncGenerator<GrepEvent> {
  const root = await searchRoot(files, request.path, "grep", options.signal);
  const args = ["--json", ...COMMON_ARGS, request.ignoreCase ? "--ignore-case" : "--case-sensitive"];
  if (request.literal) args.push("--fixed-strings");
  if (request.context) args.push("--context", String(request.context));
  if (request.glob) args.push("--glob", request.glob);
  if (request.includeIgnored) args.push("--no-ignore");
  args.push("--regexp", request.pattern, "--", root.target);
  const limit = request.maxMatches ?? Number.POSITIVE_INFINITY;
  if (limit <= 0) return;
  let found = 0;
  for await (const record of ripgrepRecords(
    client,
    rgPath,
    args,
    root.cwd,
    "\n",
    "grep",
    request.path,
    options.signal,
  )) {
    const event = parseGrepRecord(record);
    if (!event) continue;
    yield event;
    if (event.type === "match" && ++found >= limit) return;
  }
}

async function* listFiles(
  client: ContainerClient,
  files: ContainerFiles,
  rgPath: string,
  request: FilesRequest,
  options: CallOptions = {},
): AsyncGenerator<string> {
  const root = await searchRoot(files, request.path, "files", options.signal);
  const args = ["--files", "--null", ...COMMON_ARGS];
  if (request.glob) args.push("--glob", request.glob);
  if (request.includeIgnored) args.push("--no-ignore");
  args.push("--", root.target);
  const limit = request.limit ?? Number.POSITIVE_INFINITY;
  if (limit <= 0) return;
  let count = 0;
  for await (const record of ripgrepRecords(
    client,
    rgPath,
    args,
    root.cwd,
    "\0",
    "files",
    request.path,
    options.signal,
  )) {
    yield relativePath(record);
    if (++count >= limit) return;
  }
}

/**
 * Runs rg in the container and yields its output records (split on `separator`). Exit code 1
 * (nothing found) is not an error; exit code 2 with no output is, classified by what rg printed.
 * Leaving early (the caller's limit, an abort) stops rg in the container.
 */
async function* ripgrepRecords(
  client: ContainerClient,
  rgPath: string,
  args: string[],
  cwd: string,
  separator: "\n" | "\0",
  operation: string,
  path: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<string> {
  throwIfAborted(signal, operation);
  const process = await client.start(["sh", "-c", LAUNCH, "sh", rgPath, ...args], {
    operation,
    path,
    workdir: cwd,
  });
  const onAbort = () => process.detach();
  signal?.addEventListener("abort", onAbort, { once: true });
  let pid: string | undefined;
  let pending = "";
  let stderr = "";
  let records = 0;
  let finished = false;
  const decoder = new TextDecoder();
  try {
    try {
      for await (const frame of process.frames) {
        if (frame.stream === "stderr") {
          if (stderr.length < 4096) stderr += decoder.decode(frame.bytes);
          continue;
        }
        pending += decoder.decode(frame.bytes, { stream: true });
        if (pid === undefined) {
          const newline = pending.indexOf("\n");
          if (newline === -1) continue;
          pid = pending.slice(0, newline);
          pending = pending.slice(newline + 1);
        }
        let cut = pending.indexOf(separator);
        while (cut !== -1) {
          const record = pending.slice(0, cut);
          pending = pending.slice(cut + 1);
          records++;
          yield record;
          cut = pending.indexOf(separator);
        }
      }
    } catch (error) {
      throwIfAborted(signal, operation);
      throw client.fail(error, operation, path);
    }
    throwIfAborted(signal, operation);
    if (pending.length > 0) {
      records++;
      yield pending;
    }
    finished = true;
    const code = await process.exitCode();
    if (code === 2 && records === 0) throw ripgrepError(stderr, operation, path);
    if (code === 127 || code === 126) {
      throw new OperationError(
        "not_supported",
        `${operation}: ripgrep cannot run in the container (${rgPath})`,
        {
          operation,
          path,
        },
      );
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    process.detach();
    if (!finished && pid !== undefined && /^\d+$/.test(pid)) {
      // Best effort: rg ends at once on TERM; a failure here must not mask the caller's outcome.
      await client.run(["kill", "-TERM", pid], { operation }).catch(() => undefined);
    }
  }
}

/**
 * Where rg runs and what it is given: inside the requested directory, searching "./", so a glob
 * with a `/` is anchored at the request path (rg matches globs relative to its cwd) and output
 * paths only lose a "./". A file is searched from its directory by name.
 */
interface SearchRoot {
  cwd: string;
  target: string;
}

async function searchRoot(
  files: ContainerFiles,
  path: string,
  operation: string,
  signal: AbortSignal | undefined,
): Promise<SearchRoot> {
  throwIfAborted(signal, operation);
  const info = await files.stat(path, signal ? { signal } : {});
  return info.type === "directory"
    ? { cwd: path, target: "./" }
    : { cwd: posix.dirname(path), target: posix.basename(path) };
}

/** rg's path for `./x/y` is `x/y`: request-relative already. */
function relativePath(rgPath: string): string {
  return rgPath.startsWith("./") ? rgPath.slice(2) : rgPath;
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

/**
 * rg reports a bad pattern or glob only as text on stderr (exit code 2): the one place this
 * adapter reads a message, so callers get a code; the text itself is kept for the user.
 */
function ripgrepError(stderr: string, operation: string, path: string): OperationError {
  const message = stderr.trim().replace(/^rg: /, "");
  if (/regex parse error|error parsing glob|the literal .* is not allowed|invalid/i.test(message)) {
    return new OperationError("invalid_argument", `${operation}: ${message}`, { operation, path });
  }
  return new OperationError("unknown", `${operation}: ripgrep failed: ${message || "exit code 2"}`, {
    operation,
    path,
  });
}
