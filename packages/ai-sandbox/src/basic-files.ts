/**
 * `Operations` over a sandbox session that has no POSIX tools (an emulated shell such as
 * just-bash): bytes through the session's own file methods, names and types through the basic
 * scripts (commands every bash has), and `not_supported` for what neither can do (a one-call
 * tree listing, an OS sandbox, output files kept by the environment). Each refusal names what is
 * missing.
 */
import { createHash } from "node:crypto";
import { posix } from "node:path";
import {
  type CallOptions,
  changedError,
  type DirEntry,
  type FileStat,
  type FileType,
  isOperationError,
  type MkdirOptions,
  notRegularFileError,
  type OpenReadOptions,
  OperationError,
  type ReadFileOptions,
  type RemoveOptions,
  throwIfAborted,
  toOperationError,
  type WriteExpectation,
  type WriteFileOptions,
  writeExpectationWord,
} from "@tackle/operations";
import { SCRIPT_EXIT } from "@tackle/operations/container-scripts";
import { BASIC_SCRIPTS, type BasicScriptName } from "./basic-scripts.js";
import { withPathLock } from "./path-locks.js";
import type { SandboxSessionLike } from "./sandbox-types.js";
import { type SessionShell, sessionFailure } from "./session-shell.js";

/** The file methods of the adapter in `"basic"` mode. */
export class BasicSessionFiles {
  constructor(
    private readonly shell: SessionShell,
    private readonly missing: () => string,
  ) {}

  private get session(): SandboxSessionLike {
    return this.shell.session;
  }

  /** `not_supported`, saying what the session lacks. */
  private refuse(operation: string, path: string, what: string): OperationError {
    const missing = this.missing();
    return new OperationError(
      "not_supported",
      `${operation}: ${what} is not possible on this sandbox session (its commands lack: ${missing || "nothing reported"}).`,
      { operation, path },
    );
  }

  /** `stat` and `lstat`: type, size and permission bits (0 where the shell's `stat` has no `%a`); no time (0). */
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

  async readFile(path: string, options: ReadFileOptions = {}): Promise<Uint8Array> {
    const info = await this.regularFile("readFile", path, options);
    if (options.maxBytes !== undefined && info.size > options.maxBytes)
      throw tooLarge(path, info.size, options.maxBytes);
    const bytes = await this.call("readFile", path, options, (abortSignal) =>
      this.session.readBinaryFile({ path, ...abortSignal }),
    );
    if (bytes === null) throw notFound("readFile", path);
    if (options.maxBytes !== undefined && bytes.length > options.maxBytes) {
      throw tooLarge(path, bytes.length, options.maxBytes);
    }
    return bytes;
  }

  /** The session's byte stream, the bytes before `start` skipped (the interface cannot seek). */
  async *openRead(path: string, options: OpenReadOptions = {}): AsyncGenerator<Uint8Array> {
    await this.regularFile("openRead", path, options);
    let skip = options.start ?? 0;
    const stream = await this.call("openRead", path, options, (abortSignal) =>
      this.session.readFile({ path, ...abortSignal }),
    );
    if (stream === null) throw notFound("openRead", path);
    for await (const chunk of stream) {
      throwIfAborted(options.signal, "openRead");
      if (skip >= chunk.length) {
        skip -= chunk.length;
        continue;
      }
      yield skip > 0 ? chunk.subarray(skip) : chunk;
      skip = 0;
    }
  }

  /**
   * The session's `writeBinaryFile`, after checking that the parent is a directory, that the
   * target is not one, and with `within` that the parent's real path lies inside the root:
   * checked before the write, not at it (the interface has no rename to check against). With
   * `expect`, the current content is read and compared first, under a lock every adapter of this
   * package on the same session takes for the path (see `withPathLock`): the compare and the
   * write are two session calls, so a writer outside this package can land between them.
   */
  async writeFile(path: string, data: Uint8Array | string, options: WriteFileOptions = {}): Promise<void> {
    checkPath(path, "writeFile");
    const condition = writeExpectationWord(options.expect, path);
    if (condition === "") return this.writeChecked(path, data, options);
    const name = posix.basename(path);
    const target = await this.realpath(path, options).catch(async (error: unknown) => {
      if (!isOperationError(error, "not_found")) throw error;
      return posix.join(await this.realpath(posix.dirname(path), options), name);
    });
    await withPathLock(this.session, target, async () => {
      const current = await this.call("writeFile", path, options, (abortSignal) =>
        this.session.readBinaryFile({ path: target, ...abortSignal }),
      ).catch((error: unknown) => {
        // A directory or a special file in its place: the write below reports it.
        if (isOperationError(error, "unknown")) return undefined;
        throw error;
      });
      const holds =
        condition === "-"
          ? current === null
          : current !== null &&
            current !== undefined &&
            createHash("sha256").update(current).digest("hex") === condition;
      if (!holds) throw changedError(path, options.expect as WriteExpectation);
      await this.writeChecked(path, data, options);
    });
  }

  private async writeChecked(
    path: string,
    data: Uint8Array | string,
    options: WriteFileOptions,
  ): Promise<void> {
    const parent = posix.dirname(path);
    if ((await this.stat(parent, options)).type !== "directory")
      throw errnoError("ENOTDIR", "writeFile", path);
    const target = await this.stat(path, options).catch((error: unknown) => {
      if (isOperationError(error, "not_found")) return undefined;
      throw error;
    });
    if (target?.type === "directory") throw errnoError("EISDIR", "writeFile", path);
    if (target?.type === "other") throw notRegularFileError("writeFile", path);
    if (options.within !== undefined) {
      const [root, real] = [
        await this.realpath(options.within, options),
        await this.realpath(parent, options),
      ];
      if (real !== root && !real.startsWith(root.endsWith("/") ? root : `${root}/`)) {
        throw new OperationError(
          "outside_root",
          `writeFile: the directory of ${path} is not inside the root the write must stay in; nothing was written`,
          { operation: "writeFile", path },
        );
      }
    }
    const content = typeof data === "string" ? new TextEncoder().encode(data) : data;
    await this.call("writeFile", path, options, (abortSignal) =>
      this.session.writeBinaryFile({ path, content, ...abortSignal }),
    );
    // A new file gets the mode asked for; an existing one keeps its own (set again after the
    // write: a session may write a new file in its place).
    const mode = target === undefined ? options.mode : target.mode || undefined;
    if (mode !== undefined) await this.chmod(path, mode, options);
  }

  async mkdir(path: string, options: MkdirOptions = {}): Promise<void> {
    await this.script("mkdir", "mkdir", path, [path, options.recursive ? "-p" : ""], options);
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

  /** `mv` of the session's shell: atomic only as far as the session's own `mv` is. */
  async rename(from: string, to: string, options?: CallOptions): Promise<void> {
    checkPath(to, "rename");
    await this.script("rename", "rename", from, [from, to], options);
  }

  async chmod(path: string, mode: number, options?: CallOptions): Promise<void> {
    await this.script("chmod", "chmod", path, [path, (mode & 0o7777).toString(8)], options);
  }

  /** The file at `path` when it is a regular one (links followed); the failure class otherwise. */
  private async regularFile(operation: string, path: string, options: CallOptions): Promise<FileStat> {
    checkPath(path, operation);
    const info = await this.stat(path, options).catch((error: unknown) => {
      throw isOperationError(error)
        ? new OperationError(error.code, error.message.replace(/^stat/, operation), { operation, path })
        : error;
    });
    if (info.type === "directory") throw errnoError("EISDIR", operation, path);
    if (info.type !== "file") throw notRegularFileError(operation, path);
    return info;
  }

  /** Runs one basic script and returns its stdout, or throws the failure class it reported. */
  private async script(
    operation: string,
    name: BasicScriptName,
    path: string,
    args: string[],
    options: CallOptions | undefined,
  ): Promise<string> {
    checkPath(path, operation);
    const result = await this.shell.run(BASIC_SCRIPTS[name], args, operation, options?.signal, path);
    if (result.exitCode === 0) return result.stdout;
    const errno = SCRIPT_EXIT[result.exitCode];
    if (errno) throw errnoError(errno, operation, path);
    throw this.refuse(operation, path, `${operation} (exit ${result.exitCode}: ${result.stderr.trim()})`);
  }

  /** Runs one session call; an abort becomes `aborted`, any other failure `unknown`. */
  private async call<T>(
    operation: string,
    path: string,
    options: CallOptions | undefined,
    run: (abortSignal: { abortSignal?: AbortSignal }) => PromiseLike<T>,
  ): Promise<T> {
    throwIfAborted(options?.signal, operation);
    try {
      return await run(options?.signal ? { abortSignal: options.signal } : {});
    } catch (error) {
      throw sessionFailure(error, operation, options?.signal, path);
    }
  }
}

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

function notFound(operation: string, path: string): OperationError {
  return errnoError("ENOENT", operation, path);
}

function errnoError(errno: string, operation: string, path: string): OperationError {
  return toOperationError(Object.assign(new Error(errno), { code: errno }), { operation, path });
}

const TYPE_OF_LETTER: Record<string, FileType> = { f: "file", d: "directory", l: "symlink", o: "other" };

/** The stat script's "<type letter> <size> <octal mode>". */
function parseStat(out: string): FileStat {
  const [letter = "o", size = "0", mode = "0"] = out.trim().split(" ");
  return {
    type: TYPE_OF_LETTER[letter] ?? "other",
    size: Number(size) || 0,
    mtimeMs: 0,
    // Anything but octal digits (a stat without %a printing its format back) reads as 0.
    mode: /^[0-7]+$/.test(mode) ? Number.parseInt(mode, 8) & 0o7777 : 0,
  };
}

function withoutNewline(out: string): string {
  return out.endsWith("\n") ? out.slice(0, -1) : out;
}

function tooLarge(path: string, size: number, max: number): OperationError {
  return new OperationError(
    "too_large",
    `readFile: ${path} has ${size} bytes, more than the ${max} allowed`,
    {
      operation: "readFile",
      path,
    },
  );
}
