import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import {
  type CallOptions,
  conditionalWriteError,
  type DirEntry,
  type FileStat,
  type FileType,
  FOREIGN_TEMP_MAX_AGE_MS,
  isOperationError,
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
import type { PodClient } from "./pod-client.js";
import { ResidentShellPool } from "./resident-shell.js";

const TYPE_BITS = 0xf000;
const TYPES: Record<number, FileType> = { 32768: "file", 16384: "directory", 40960: "symlink" };
const LETTERS: Record<string, FileType> = { f: "file", d: "directory", l: "symlink", o: "other" };

/**
 * The file half of `Operations` in a pod: each call is one exec of a short POSIX sh script with
 * busybox-level tools, as the container's user (its permissions apply).
 */
export class PodFiles {
  private treeMode: TreeListingMode | undefined;
  private readonly shells: ResidentShellPool | undefined;

  /**
   * With `resident`, scripts run on a pool of long-lived shells instead of one exec each.
   * `writerDomain` gives the `tempFileDomain` of the container's process table, learnt at connect.
   */
  constructor(
    private readonly client: PodClient,
    resident: boolean,
    private readonly writerDomain: () => string,
  ) {
    this.shells = resident ? new ResidentShellPool(client) : undefined;
  }

  /** Starts the resident shells in the background, so the first calls find them running. */
  warm(): void {
    this.shells?.warm();
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
    return chomp(await this.script("realpath", "realpath", path, [path], options));
  }

  async readlink(path: string, options?: CallOptions): Promise<string> {
    return chomp(await this.script("readlink", "readlink", path, [path], options));
  }

  async readdir(path: string, options?: CallOptions): Promise<DirEntry[]> {
    const out = await this.script("readdir", "readdir", path, [path], options);
    return out
      .toString("utf8")
      .split("\0")
      .filter((record) => record.length >= 2)
      .map((record) => ({ name: record.slice(1), type: LETTERS[record[0] ?? "o"] ?? "other" }));
  }

  async readFile(path: string, options: ReadFileOptions = {}): Promise<Uint8Array> {
    const max = options.maxBytes === undefined ? "" : String(options.maxBytes);
    const bytes = await this.script("readFile", "read", path, [path, max, "0"], options);
    if (options.maxBytes !== undefined && bytes.length > options.maxBytes) {
      // The file grew between the size check and the read.
      throw toOperationError(Object.assign(new Error("EFBIG"), { code: "EFBIG" }), {
        operation: "readFile",
        path,
      });
    }
    return bytes;
  }

  /** Streams the file from `start` (`dd` seeks there); the socket pauses while the caller does. */
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
    if (this.shells) {
      const status = yield* this.shells.stream(withArguments(fileScript("read"), [path, "", String(start)]), {
        operation: "openRead",
        path,
        signal: options.signal,
      });
      this.check(status, "openRead", path);
      return;
    }
    const process = await this.client.start(["sh", "-c", fileScript("read"), "sh", path, "", String(start)], {
      operation: "openRead",
      path,
    });
    const onAbort = () => process.detach();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      for await (const frame of process.frames) if (frame.stream === "stdout") yield frame.bytes;
      throwIfAborted(options.signal, "openRead");
      const end = await process.ended;
      this.check(end.kind === "exited" ? end.exitCode : undefined, "openRead", path);
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      process.detach();
    }
  }

  /** `Operations.listTree`: one run of the shared listing script. */
  async listTree(root: string, options: ListTreeOptions): Promise<TreeListing> {
    checkPath(root, "listTree");
    const result = await runTreeListing(root, options, this.treeMode, async (args, signal, onChunk) => {
      throwIfAborted(signal, "listTree");
      if (this.shells) {
        const output = this.shells.stream(withArguments(TREE_LISTING_SCRIPT, args), {
          signal,
          operation: "listTree",
          path: root,
        });
        for (;;) {
          const next = await output.next();
          if (next.done) return next.value;
          onChunk(next.value);
        }
      }
      const process = await this.client.start(["sh", "-c", TREE_LISTING_SCRIPT, "listTree", ...args], {
        operation: "listTree",
        path: root,
      });
      const onAbort = () => process.detach();
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        for await (const frame of process.frames) if (frame.stream === "stdout") onChunk(frame.bytes);
        throwIfAborted(signal, "listTree");
        const end = await process.ended;
        if (end.kind !== "exited") this.check(undefined, "listTree", root);
        return end.kind === "exited" ? end.exitCode : 1;
      } finally {
        signal.removeEventListener("abort", onAbort);
        process.detach();
      }
    });
    this.treeMode ??= result.mode;
    return result.listing;
  }

  /**
   * Atomic write by the `write` script (see `fileScript` in `@tackle/operations/container-scripts`): temp file, rename and cleanup all
   * through the directory the script holds open, `within` checked right before the rename, temp
   * files of dead writers swept. The writer a temp name records is the script's shell in the
   * container: dead when no process there runs with that pid and start time.
   */
  async writeFile(path: string, data: Uint8Array | string, options: WriteFileOptions = {}): Promise<void> {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    if (options.within !== undefined) checkPath(options.within, "writeFile");
    // With `expect`, the write script takes the file's write lock, compares and renames in one run.
    const condition = writeExpectationWord(options.expect, path);
    const token = randomBytes(8).toString("hex");
    const args = [
      path,
      ((options.mode ?? 0o644) & 0o7777).toString(8),
      token,
      String(bytes.length),
      this.writerDomain(),
      options.within ?? "",
      String(Math.ceil(FOREIGN_TEMP_MAX_AGE_MS / 60_000)),
      condition,
      String(WRITE_LOCK_SHELL_TRIES),
      String(WRITE_LOCK_SHELL_FOREIGN_MINUTES),
    ];
    try {
      await this.script("writeFile", "write", path, args, options, bytes);
    } catch (error) {
      // The pod cannot be watched once the connection is closed: wait there for the writer to
      // remove its temp file, so "aborted" means nothing of the write is left or can land.
      if (isOperationError(error, "aborted"))
        await this.script("writeFile", "settle_write", path, [path, token], undefined).catch(() => undefined);
      throw error;
    }
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

  /** Runs one file script; returns its stdout or throws the failure class its exit code names. */
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
    const result = this.shells
      ? await this.shells.run(withArguments(fileScript(name), args), {
          operation,
          path,
          signal: options?.signal,
          ...(stdin ? { data: stdin } : {}),
        })
      : await this.client.run(["sh", "-c", fileScript(name), "sh", ...args], {
          operation,
          path,
          signal: options?.signal,
          ...(stdin ? { stdin } : {}),
        });
    this.check(result.exitCode, operation, path, result.stderr);
    return result.stdout;
  }

  private check(exitCode: number | undefined, operation: string, path: string, stderr?: Buffer): void {
    if (exitCode === 0) return;
    if (exitCode === undefined) throw this.client.lost(operation, path);
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
      `${operation} failed in the pod (exit ${exitCode})${detail ? `: ${detail}` : ""}`,
      {
        operation,
        path,
      },
    );
  }
}

/** A script for a resident shell: its arguments quoted into a `set --` line in front. */
function withArguments(script: string, args: string[]): string {
  return `set -- ${args.map(shellQuote).join(" ")}\n${script}`;
}

/** Paths reach the pod as exec arguments: absolute and NUL-free. */
export function checkPath(path: string, operation: string): void {
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

/** `stat -c '%f %s %Y %y'`: raw mode in hex, size, mtime seconds, mtime with its fraction. */
function parseStat(out: Buffer): FileStat {
  const [rawMode = "0", size = "0", seconds = "0", , clock = ""] = out.toString("utf8").trim().split(" ");
  const mode = Number.parseInt(rawMode, 16);
  const nanos = Number.parseInt((clock.split(".")[1] ?? "0").padEnd(9, "0").slice(0, 9), 10);
  return {
    type: TYPES[mode & TYPE_BITS] ?? "other",
    size: Number(size),
    // Node's own formula for mtimeMs, so one instant compares equal across adapters.
    mtimeMs: Number(seconds) * 1e3 + nanos / 1e6,
    mode: mode & 0o7777,
  };
}

function chomp(out: Buffer): string {
  const text = out.toString("utf8");
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}
