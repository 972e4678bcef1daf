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
} from "@tackle/operations/container-scripts";
import type { ContainerClient } from "./container-client.js";
import { DockerOperationError } from "./engine-error.js";
import { ResidentShellPool, shellQuote } from "./resident-shell.js";

/** `S_IFMT` and the file-type values of `st_mode` (the same on every Linux and BSD). */
const S_IFMT = 0xf000;
const S_IFREG = 0x8000;
const S_IFDIR = 0x4000;
const S_IFLNK = 0xa000;
const TYPE_OF_LETTER: Record<string, FileType> = { f: "file", d: "directory", l: "symlink", o: "other" };

/**
 * The file half of `Operations` inside a container: each call runs a short POSIX sh script using
 * busybox-level tools only (`stat -c`, `realpath`, `readlink`, `dd`, `mv`) as the
 * adapter's user, so the container's own permissions apply; on a resident shell, or as an exec
 * of its own.
 */
export class ContainerFiles {
  private readonly shells: ResidentShellPool | undefined;
  /** How the listing script reads entries here, learnt on the first `listTree`. */
  private treeMode: TreeListingMode | undefined;

  /**
   * With `resident`, scripts run in a pool of long-lived shells instead of one exec each.
   * `writerDomain` gives the `tempFileDomain` of the container's process table (see
   * `writeFile`), learnt when the adapter connects.
   */
  constructor(
    private readonly client: ContainerClient,
    resident: boolean,
    private readonly writerDomain: () => string,
  ) {
    this.shells = resident ? new ResidentShellPool(client) : undefined;
  }

  /** Ends the resident shells. */
  close(): void {
    this.shells?.close();
  }

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
    for (const record of out.toString("utf8").split("\0")) {
      if (record.length < 2) continue;
      entries.push({ name: record.slice(1), type: TYPE_OF_LETTER[record[0] ?? "o"] ?? "other" });
    }
    return entries;
  }

  async readFile(path: string, options: ReadFileOptions = {}): Promise<Uint8Array> {
    const max = options.maxBytes === undefined ? "" : String(options.maxBytes);
    const bytes = await this.script("readFile", "read", path, [path, max, "0"], options);
    if (options.maxBytes !== undefined && bytes.length > options.maxBytes) {
      // The file grew between the size check and the read.
      throw toOperationError(Object.assign(new Error("too large"), { code: "EFBIG" }), {
        operation: "readFile",
        path,
      });
    }
    return bytes;
  }

  /** Streams the file from `start` (`dd` seeks there) frame by frame: the engine socket is paused while the caller is. */
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
    throwIfAborted(options.signal, "openRead");
    const args = [path, "", String(start)];
    if (this.shells) {
      let status: number;
      try {
        status = yield* this.shells.stream(this.residentScript("read", args), {
          operation: "openRead",
          path,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } catch (error) {
        return await this.client.explain(error, "openRead", path);
      }
      this.check(status, "openRead", path);
      return;
    }
    const process = await this.client.start(["sh", "-c", fileScript("read"), "sh", ...args], {
      operation: "openRead",
      path,
    });
    const onAbort = () => process.detach();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      try {
        for await (const frame of process.frames) {
          if (frame.stream === "stdout") yield frame.bytes;
        }
      } catch (error) {
        throwIfAborted(options.signal, "openRead");
        throw this.client.fail(error, "openRead", path);
      }
      throwIfAborted(options.signal, "openRead");
      this.check(await process.exitCode(), "openRead", path);
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      process.detach();
    }
  }

  /**
   * `Operations.listTree`: one run of the shared listing script (`find` with GNU `-printf`, or
   * busybox `find` with `stat` in batches), on a resident shell or as an exec of its own.
   */
  async listTree(root: string, options: ListTreeOptions): Promise<TreeListing> {
    checkPath(root, "listTree");
    const result = await runTreeListing(root, options, this.treeMode, (args, signal, onChunk) =>
      this.streamScript(TREE_LISTING_SCRIPT, args, signal, onChunk, "listTree", root),
    );
    this.treeMode ??= result.mode;
    return result.listing;
  }

  /** Runs a script with `args`, each stdout chunk to `onChunk`; resolves with its exit status. */
  private async streamScript(
    script: string,
    args: string[],
    signal: AbortSignal,
    onChunk: (bytes: Uint8Array) => void,
    operation: string,
    path: string,
  ): Promise<number> {
    throwIfAborted(signal, operation);
    if (this.shells) {
      const text = `set -- ${args.map(shellQuote).join(" ")}\n${script}`;
      const output = this.shells.stream(text, { signal, operation, path });
      try {
        for (;;) {
          const next = await output.next();
          if (next.done) return next.value;
          onChunk(next.value);
        }
      } catch (error) {
        return await this.client.explain(error, operation, path);
      }
    }
    const process = await this.client.start(["sh", "-c", script, operation, ...args], { operation, path });
    const onAbort = () => process.detach();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      try {
        for await (const frame of process.frames) if (frame.stream === "stdout") onChunk(frame.bytes);
      } catch (error) {
        throwIfAborted(signal, operation);
        throw this.client.fail(error, operation, path);
      }
      throwIfAborted(signal, operation);
      const status = await process.exitCode();
      if (status === undefined) this.check(status, operation, path);
      return status ?? 1;
    } finally {
      signal.removeEventListener("abort", onAbort);
      process.detach();
    }
  }

  /**
   * Atomic write by the `write` script: the directory is held open by the script's shell and the
   * temp file, the rename and the cleanup go through it (`/proc/self/fd`), `within` is checked
   * there right before the rename, and temp files of dead writers are swept. The writer a temp
   * name records is the script's shell inside the container: it is dead when no process of the
   * container runs with that pid and start time (killed mid-write, or the container restarted:
   * then the pid namespace, and so the domain, is new and the age rule applies).
   */
  async writeFile(path: string, data: Uint8Array | string, options: WriteFileOptions = {}): Promise<void> {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    const mode = ((options.mode ?? 0o644) & 0o7777).toString(8);
    if (options.within !== undefined) checkPath(options.within, "writeFile");
    const condition = writeExpectationWord(options.expect, path);
    const args = [
      path,
      mode,
      randomBytes(8).toString("hex"),
      String(bytes.length),
      this.writerDomain(),
      options.within ?? "",
      String(Math.ceil(FOREIGN_TEMP_MAX_AGE_MS / 60_000)),
      condition,
      String(WRITE_LOCK_SHELL_TRIES),
      String(WRITE_LOCK_SHELL_FOREIGN_MINUTES),
    ];
    await this.script("writeFile", "write", path, args, options, bytes);
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
    stdin?: Uint8Array,
  ): Promise<Buffer> {
    checkPath(path, operation);
    throwIfAborted(options?.signal, operation);
    const signal = options?.signal ? { signal: options.signal } : {};
    const result = this.shells
      ? await this.shells
          .run(this.residentScript(name, args), {
            operation,
            path,
            ...signal,
            ...(stdin ? { data: stdin } : {}),
          })
          .catch((error: unknown) => this.client.explain(error, operation, path))
      : await this.client.run(["sh", "-c", fileScript(name), "sh", ...args], {
          operation,
          path,
          ...signal,
          ...(stdin ? { stdin } : {}),
        });
    this.check(result.exitCode, operation, path, result.stderr);
    return result.stdout;
  }

  /** A file script with its arguments quoted into a `set --` line, for a resident shell. */
  private residentScript(name: FileScriptName, args: string[]): string {
    return `set -- ${args.map(shellQuote).join(" ")}\n${fileScript(name)}`;
  }

  private check(exitCode: number | undefined, operation: string, path: string, stderr?: Buffer): void {
    if (exitCode === 0) return;
    if (exitCode === undefined) {
      throw new DockerOperationError(
        "container_not_running",
        `${operation}: container ${this.client.containerName} stopped during the call`,
        { operation, path },
      );
    }
    if (exitCode === SCRIPT_CODE.special_file) throw notRegularFileError(operation, path);
    if (exitCode === SCRIPT_CODE.outside_root) {
      throw new OperationError(
        "outside_root",
        `${operation}: the directory of ${path} is not inside the root the write must stay in; nothing was written`,
        { operation, path },
      );
    }
    const conditional = conditionalWriteError(exitCode, operation, path, "container");
    if (conditional) throw conditional;
    const errno = SCRIPT_EXIT[exitCode];
    if (errno) throw toOperationError(Object.assign(new Error(errno), { code: errno }), { operation, path });
    const detail = stderr?.toString("utf8").trim();
    throw new OperationError(
      "unknown",
      `${operation} failed in the container (exit ${exitCode})${detail ? `: ${detail}` : ""}`,
      {
        operation,
        path,
      },
    );
  }
}

/** Paths are absolute and NUL-free: they reach the container as exec arguments, never as text. */
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
function parseStat(out: Buffer): FileStat {
  const [rawMode = "0", size = "0", seconds = "0", , clock = ""] = out.toString("utf8").trim().split(" ");
  const mode = Number.parseInt(rawMode, 16);
  const nanos = Number.parseInt((clock.split(".")[1] ?? "0").padEnd(9, "0").slice(0, 9), 10);
  return {
    type: fileTypeOf(mode),
    size: Number(size),
    // Same formula as Node's `mtimeMs`, so equal instants compare equal across adapters.
    mtimeMs: Number(seconds) * 1e3 + nanos / 1e6,
    mode: mode & 0o7777,
  };
}

function fileTypeOf(mode: number): FileType {
  switch (mode & S_IFMT) {
    case S_IFREG:
      return "file";
    case S_IFDIR:
      return "directory";
    case S_IFLNK:
      return "symlink";
    default:
      return "other";
  }
}

function withoutNewline(out: Buffer): string {
  const text = out.toString("utf8");
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}
