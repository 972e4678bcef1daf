/**
 * The file half of `Operations` over a sandbox session whose commands run in a POSIX system:
 * the container file scripts of `@tackle/operations` (the Docker and Kubernetes adapters run the
 * same ones), each as one `run`; bytes read through `spawn` (exact bytes, streamed from an
 * offset); a write staged through the session's own file write and then committed by the
 * shared write script (temp file in the target's directory, `within`, conditional writes under
 * the write lock, rename, sweep of dead writers' temp files).
 */
import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import {
  type CallOptions,
  conditionalWriteError,
  type DirEntry,
  type FileStat,
  type FileType,
  FOREIGN_TEMP_MAX_AGE_MS,
  type ListTreeOptions,
  type MkdirOptions,
  notRegularFileError,
  type OpenReadOptions,
  OperationError,
  type ReadFileOptions,
  type RemoveOptions,
  runTreeListing,
  TREE_LISTING_SCRIPT,
  type TreeListing,
  type TreeListingMode,
  throwIfAborted,
  toOperationError,
  WRITE_LOCK_SHELL_FOREIGN_MINUTES,
  WRITE_LOCK_SHELL_TRIES,
  type WriteFileOptions,
  writeExpectationWord,
} from "@tackle/operations";
import {
  type FileScriptName,
  fileScript,
  SCRIPT_CODE,
  SCRIPT_EXIT,
  shellQuote,
} from "@tackle/operations/container-scripts";
import { type SessionShell, scriptLine, sessionFailure } from "./session-shell.js";

const S_IFMT = 0xf000;
const TYPE_OF_MODE: Record<number, FileType> = { 32768: "file", 16384: "directory", 40960: "symlink" };
const TYPE_OF_LETTER: Record<string, FileType> = { f: "file", d: "directory", l: "symlink", o: "other" };

/** What the files need to know about the environment, learnt when the adapter connects. */
export interface SessionFacts {
  /** `tempFileDomain` of the environment's process table (random without /proc). */
  writerDomain: string;
  /** Directory for staged writes and command control directories (absolute). */
  tempDir: string;
}

/** The file methods of the session adapter (see the module comment). */
export class SessionFiles {
  private treeMode: TreeListingMode | undefined;

  constructor(
    private readonly shell: SessionShell,
    private readonly facts: () => SessionFacts,
  ) {}

  async stat(path: string, options?: CallOptions): Promise<FileStat> {
    return parseStat(await this.script("stat", "stat", path, [path, "-L"], options));
  }

  async lstat(path: string, options?: CallOptions): Promise<FileStat> {
    return parseStat(await this.script("lstat", "stat", path, [path, ""], options));
  }

  async realpath(path: string, options?: CallOptions): Promise<string> {
    return withoutNewline(await this.script("realpath", "realpath", path, [path], options));
  }

  async readlink(path: string, options?: CallOptions): Promise<string> {
    return withoutNewline(await this.script("readlink", "readlink", path, [path], options));
  }

  async readdir(path: string, options?: CallOptions): Promise<DirEntry[]> {
    const out = await this.script("readdir", "readdir", path, [path], options);
    const entries: DirEntry[] = [];
    for (const record of out.split("\0")) {
      if (record.length < 2) continue;
      entries.push({ name: record.slice(1), type: TYPE_OF_LETTER[record[0] ?? "o"] ?? "other" });
    }
    return entries;
  }

  async readFile(path: string, options: ReadFileOptions = {}): Promise<Uint8Array> {
    checkPath(path, "readFile");
    const max = options.maxBytes === undefined ? "" : String(options.maxBytes);
    const chunks: Uint8Array[] = [];
    const status = await this.shell.stream(
      fileScript("read"),
      [path, max, "0"],
      "readFile",
      options.signal,
      (chunk) => chunks.push(chunk),
      path,
    );
    check(status, "readFile", path);
    const bytes = new Uint8Array(Buffer.concat(chunks));
    if (options.maxBytes !== undefined && bytes.length > options.maxBytes) {
      // The file grew between the script's size check and its read.
      throw toOperationError(Object.assign(new Error("too large"), { code: "EFBIG" }), {
        operation: "readFile",
        path,
      });
    }
    return bytes;
  }

  async *openRead(path: string, options: OpenReadOptions = {}): AsyncGenerator<Uint8Array> {
    const start = options.start ?? 0;
    checkPath(path, "openRead");
    if (!Number.isSafeInteger(start) || start < 0) {
      throw new OperationError(
        "invalid_argument",
        `openRead: start must be a byte offset >= 0, got ${start}`,
        {
          operation: "openRead",
          path,
        },
      );
    }
    // The session's process streams are pull-based: chunks wait here while the caller is busy.
    const pending: Uint8Array[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const stop = new AbortController();
    const forward = () => stop.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", forward, { once: true });
    const run = this.shell
      .stream(
        fileScript("read"),
        [path, "", String(start)],
        "openRead",
        stop.signal,
        (chunk) => {
          pending.push(chunk);
          wake?.();
        },
        path,
      )
      .finally(() => {
        done = true;
        wake?.();
      });
    run.catch(() => undefined);
    try {
      for (;;) {
        const chunk = pending.shift();
        if (chunk) {
          yield chunk;
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      throwIfAborted(options.signal, "openRead");
      check(await run, "openRead", path);
    } finally {
      options.signal?.removeEventListener("abort", forward);
      if (!done) stop.abort();
    }
  }

  async listTree(root: string, options: ListTreeOptions): Promise<TreeListing> {
    checkPath(root, "listTree");
    const result = await runTreeListing(root, options, this.treeMode, (args, signal, onChunk) =>
      this.shell.stream(TREE_LISTING_SCRIPT, args, "listTree", signal, onChunk, root),
    );
    this.treeMode ??= result.mode;
    return result.listing;
  }

  /**
   * Stages the bytes through the session's own `writeBinaryFile` (in the temp directory, under a
   * random name), then runs the shared write script with the staged file as its stdin and
   * removes the staged file in the same command, whatever the script decided.
   */
  async writeFile(path: string, data: Uint8Array | string, options: WriteFileOptions = {}): Promise<void> {
    checkPath(path, "writeFile");
    if (options.within !== undefined) checkPath(options.within, "writeFile");
    throwIfAborted(options.signal, "writeFile");
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    const condition = writeExpectationWord(options.expect, path);
    const { tempDir, writerDomain } = this.facts();
    const staged = `${tempDir}/.tackle-staged-${randomBytes(8).toString("hex")}`;
    const args = [
      path,
      ((options.mode ?? 0o644) & 0o7777).toString(8),
      randomBytes(8).toString("hex"),
      String(bytes.length),
      writerDomain,
      options.within ?? "",
      String(Math.ceil(FOREIGN_TEMP_MAX_AGE_MS / 60_000)),
      condition,
      String(WRITE_LOCK_SHELL_TRIES),
      String(WRITE_LOCK_SHELL_FOREIGN_MINUTES),
    ];
    try {
      await this.shell.session.writeBinaryFile({
        path: staged,
        content: bytes,
        ...(options.signal ? { abortSignal: options.signal } : {}),
      });
    } catch (error) {
      // A staging write cut short may have left part of the file: remove it (best effort).
      void Promise.resolve(this.shell.session.run({ command: `rm -f ${shellQuote(staged)}` })).catch(
        () => undefined,
      );
      throw sessionFailure(error, "writeFile", options.signal, path);
    }
    const commit = `${scriptLine(fileScript("write"), "writeFile", args)} < ${shellQuote(staged)}; _s=$?; rm -f ${shellQuote(staged)}; exit $_s`;
    let exitCode: number;
    try {
      ({ exitCode } = await this.shell.session.run({ command: commit }));
    } catch (error) {
      throw sessionFailure(error, "writeFile", undefined, path);
    }
    check(exitCode, "writeFile", path);
  }

  async mkdir(path: string, options: MkdirOptions = {}): Promise<void> {
    await this.script("mkdir", "mkdir", path, [path, options.recursive ? "-p" : ""], options);
  }

  async remove(path: string, options: RemoveOptions = {}): Promise<void> {
    await this.script(
      "remove",
      "remove",
      path,
      [path, options.recursive ? "r" : "", options.force ? "f" : ""],
      options,
    );
  }

  async symlink(target: string, path: string, options?: CallOptions): Promise<void> {
    if (target.length === 0 || target.includes("\0")) {
      throw new OperationError("invalid_argument", "symlink: target must be a non-empty string without NUL", {
        operation: "symlink",
        path,
      });
    }
    await this.script("symlink", "symlink", path, [target, path], options);
  }

  async rename(from: string, to: string, options?: CallOptions): Promise<void> {
    checkPath(to, "rename");
    await this.script("rename", "rename", from, [from, to], options);
  }

  async chmod(path: string, mode: number, options?: CallOptions): Promise<void> {
    await this.script("chmod", "chmod", path, [path, (mode & 0o7777).toString(8)], options);
  }

  /** Runs one file script and returns its stdout, or throws the failure class it reported. */
  private async script(
    operation: string,
    name: FileScriptName,
    path: string,
    args: string[],
    options: CallOptions | undefined,
  ): Promise<string> {
    checkPath(path, operation);
    const result = await this.shell.run(fileScript(name), args, operation, options?.signal, path);
    check(result.exitCode, operation, path, result.stderr);
    return result.stdout;
  }
}

/** Throws the `OperationError` a file script's exit code stands for. */
function check(exitCode: number, operation: string, path: string, stderr?: string): void {
  if (exitCode === 0) return;
  if (exitCode === SCRIPT_CODE.special_file) throw notRegularFileError(operation, path);
  if (exitCode === SCRIPT_CODE.outside_root) {
    throw new OperationError(
      "outside_root",
      `${operation}: the directory of ${path} is not inside the root the write must stay in; nothing was written`,
      { operation, path },
    );
  }
  const conditional = conditionalWriteError(exitCode, operation, path, "sandbox");
  if (conditional) throw conditional;
  const errno = SCRIPT_EXIT[exitCode];
  if (errno) throw toOperationError(Object.assign(new Error(errno), { code: errno }), { operation, path });
  const detail = stderr?.trim();
  throw new OperationError(
    "unknown",
    `${operation} failed in the sandbox (exit ${exitCode})${detail ? `: ${detail}` : ""}`,
    { operation, path },
  );
}

/** Paths are absolute and NUL-free: they reach the session as quoted arguments. */
function checkPath(path: string, operation: string): void {
  if (typeof path !== "string" || path.length === 0 || path.includes("\0") || !posix.isAbsolute(path)) {
    throw new OperationError(
      "invalid_argument",
      `${operation}: path must be absolute and NUL-free: ${String(path)}`,
      {
        operation,
        path: String(path).replaceAll("\0", "\\0"),
      },
    );
  }
}

/** `stat -c '%f %s %Y %y'`: raw mode (hex), size, mtime seconds, mtime with nanoseconds. */
function parseStat(out: string): FileStat {
  const [rawMode = "0", size = "0", seconds = "0", , clock = ""] = out.trim().split(" ");
  const mode = Number.parseInt(rawMode, 16);
  const nanos = Number.parseInt((clock.split(".")[1] ?? "0").padEnd(9, "0").slice(0, 9), 10);
  return {
    type: TYPE_OF_MODE[mode & S_IFMT] ?? "other",
    size: Number(size),
    // Node's `mtimeMs` formula, so equal instants compare equal across adapters.
    mtimeMs: Number(seconds) * 1e3 + nanos / 1e6,
    mode: mode & 0o7777,
  };
}

function withoutNewline(out: string): string {
  return out.endsWith("\n") ? out.slice(0, -1) : out;
}
