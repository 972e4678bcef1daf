import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import {
  isOperationError,
  notRegularFileError,
  OperationError,
  throwIfAborted,
  toOperationError,
} from "../errors.js";
import { FOREIGN_TEMP_MAX_AGE_MS } from "../temp-files.js";
import { runTreeListing, TREE_LISTING_SCRIPT, type TreeListingMode } from "../tree-listing.js";
import type {
  CallOptions,
  DirEntry,
  FileStat,
  FileType,
  ListTreeOptions,
  MkdirOptions,
  OpenReadOptions,
  ReadFileOptions,
  RemoveOptions,
  TreeListing,
  WriteFileOptions,
} from "../types.js";
import {
  conditionalWriteError,
  WRITE_LOCK_SHELL_FOREIGN_MINUTES,
  WRITE_LOCK_SHELL_TRIES,
  writeExpectationWord,
} from "../write-lock.js";
import { type FileScriptName, fileScript, SCRIPT_CODE, SCRIPT_EXIT } from "./file-scripts.js";
import type { ResidentShellPool } from "./resident-shell-pool.js";
import { shellQuote } from "./shell-text.js";

/** `S_IFMT` and the file types of `st_mode` (the same on every Linux and BSD). */
const TYPE_BITS = 0xf000;
const TYPES: Record<number, FileType> = { 32768: "file", 16384: "directory", 40960: "symlink" };
const LETTERS: Record<string, FileType> = { f: "file", d: "directory", l: "symlink", o: "other" };

/** What a script run as an exec of its own ended with; `exitCode` is absent when its end was not seen. */
export interface ScriptRunResult {
  exitCode: number | undefined;
  stdout: Buffer;
  stderr: Buffer;
}

/** Where a script run goes: for messages and errors. */
export interface ScriptCall {
  operation: string;
  path: string;
  signal?: AbortSignal | undefined;
}

/**
 * How an adapter runs the file scripts in its environment: on its resident shells when it has
 * them, else one exec per script. Everything transport-specific of the file half lives here.
 */
export interface ScriptTransport {
  /** Where the scripts run, for messages (`container`, `pod`). */
  readonly place: string;
  /** Resident shells, when the adapter keeps them. */
  readonly shells: ResidentShellPool | undefined;
  /** Runs `argv` as one exec to its end, `stdin` given whole. */
  run(argv: string[], call: ScriptCall & { stdin?: Uint8Array }): Promise<ScriptRunResult>;
  /** Runs `argv` as one exec, yielding its stdout; returns its exit status, or undefined when lost. */
  stream(argv: string[], call: ScriptCall): AsyncGenerator<Uint8Array, number | undefined>;
  /** The error for a script whose end was not seen (the container stopped, the connection dropped). */
  lost(operation: string, path: string): Error;
  /** Turns a resident shell's failure into the adapter's error (e.g. a container that stopped). */
  explain?(error: unknown, operation: string, path: string): Promise<never>;
  /** The `tempFileDomain` of the environment's process table, learnt when the adapter connected. */
  writerDomain(): string;
  /**
   * After an aborted write, wait in the environment for the writer to remove its temp file, so
   * "aborted" means nothing of the write is left or can land (needed where the environment cannot
   * be watched once the connection is closed).
   */
  readonly settleAbortedWrites?: boolean;
}

/**
 * The file half of `Operations` in a POSIX environment reached only through "run this argv": each
 * call runs a short sh script (`fileScript`) with busybox-level tools as the environment's user,
 * so its permissions apply; the script's exit code names the failure class. Shared by the Docker
 * and Kubernetes adapters, which differ only in their {@link ScriptTransport}.
 */
export class ScriptFiles {
  /** How the listing script reads entries here, learnt on the first `listTree`. */
  private treeMode: TreeListingMode | undefined;

  constructor(private readonly transport: ScriptTransport) {}

  /** Starts the resident shells in the background, so the first calls find them running. */
  warm(): void {
    this.transport.shells?.warm();
  }

  /** Ends the resident shells. */
  close(): void {
    this.transport.shells?.close();
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

  /** Streams the file from `start` (`dd` seeks there); the stream pauses while the caller does. */
  async *openRead(path: string, options: OpenReadOptions = {}): AsyncGenerator<Uint8Array> {
    const start = options.start ?? 0;
    checkScriptPath(path, "openRead");
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
    const status = yield* this.streamScript(fileScript("read"), [path, "", String(start)], {
      operation: "openRead",
      path,
      signal: options.signal,
    });
    this.check(status, "openRead", path);
  }

  /**
   * `Operations.listTree`: one run of the shared listing script (`find` with GNU `-printf`, or
   * busybox `find` with `stat` in batches), on a resident shell or as an exec of its own.
   */
  async listTree(root: string, options: ListTreeOptions): Promise<TreeListing> {
    checkScriptPath(root, "listTree");
    const result = await runTreeListing(root, options, this.treeMode, async (args, signal, onChunk) => {
      throwIfAborted(signal, "listTree");
      const output = this.streamScript(TREE_LISTING_SCRIPT, args, {
        operation: "listTree",
        path: root,
        signal,
      });
      for (;;) {
        const next = await output.next();
        if (next.done) {
          if (next.value === undefined) this.check(undefined, "listTree", root);
          return next.value ?? 1;
        }
        onChunk(next.value);
      }
    });
    this.treeMode ??= result.mode;
    return result.listing;
  }

  /**
   * Atomic write by the `write` script: the directory is held open by the script's shell and the
   * temp file, the rename and the cleanup go through it (`/proc/self/fd`), `within` is checked
   * there right before the rename, and temp files of dead writers are swept. The writer a temp
   * name records is the script's shell: it is dead when no process of the environment runs with
   * that pid and start time (killed mid-write, or the container restarted: then the pid
   * namespace, and so the domain, is new and the age rule applies). With `expect`, the script
   * takes the file's write lock, compares and renames in one run.
   */
  async writeFile(path: string, data: Uint8Array | string, options: WriteFileOptions = {}): Promise<void> {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    if (options.within !== undefined) checkScriptPath(options.within, "writeFile");
    const condition = writeExpectationWord(options.expect, path);
    const token = randomBytes(8).toString("hex");
    const args = [
      path,
      ((options.mode ?? 0o644) & 0o7777).toString(8),
      token,
      String(bytes.length),
      this.transport.writerDomain(),
      options.within ?? "",
      String(Math.ceil(FOREIGN_TEMP_MAX_AGE_MS / 60_000)),
      condition,
      String(WRITE_LOCK_SHELL_TRIES),
      String(WRITE_LOCK_SHELL_FOREIGN_MINUTES),
    ];
    try {
      await this.script("writeFile", "write", path, args, options, bytes);
    } catch (error) {
      if (this.transport.settleAbortedWrites && isOperationError(error, "aborted"))
        await this.script("writeFile", "settle_write", path, [path, token], undefined).catch(() => undefined);
      throw error;
    }
  }

  async mkdir(path: string, options: MkdirOptions = {}): Promise<void> {
    await this.script("mkdir", "mkdir", path, [path, options.recursive ? "-p" : ""], options);
  }

  async remove(path: string, options: RemoveOptions = {}): Promise<void> {
    const flags = [options.recursive ? "r" : "", options.force ? "f" : ""];
    await this.script("remove", "remove", path, [path, ...flags], options);
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
    checkScriptPath(to, "rename");
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
    checkScriptPath(path, operation);
    throwIfAborted(options?.signal, operation);
    const { shells } = this.transport;
    const call = { operation, path, signal: options?.signal };
    const result = shells
      ? await shells
          .run(withArguments(fileScript(name), args), { ...call, ...(stdin ? { data: stdin } : {}) })
          .catch((error: unknown) => this.explain(error, operation, path))
      : await this.transport.run(["sh", "-c", fileScript(name), "sh", ...args], {
          ...call,
          ...(stdin ? { stdin } : {}),
        });
    this.check(result.exitCode, operation, path, result.stderr);
    return result.stdout;
  }

  /** Runs a script with `args`, yielding its stdout; returns its exit status (undefined: lost). */
  private async *streamScript(
    script: string,
    args: string[],
    call: ScriptCall,
  ): AsyncGenerator<Uint8Array, number | undefined> {
    const { shells } = this.transport;
    if (!shells) return yield* this.transport.stream(["sh", "-c", script, call.operation, ...args], call);
    try {
      return yield* shells.stream(withArguments(script, args), call);
    } catch (error) {
      return await this.explain(error, call.operation, call.path);
    }
  }

  private explain(error: unknown, operation: string, path: string): Promise<never> {
    if (this.transport.explain) return this.transport.explain(error, operation, path);
    return Promise.reject(error);
  }

  private check(exitCode: number | undefined, operation: string, path: string, stderr?: Buffer): void {
    if (exitCode === 0) return;
    if (exitCode === undefined) throw this.transport.lost(operation, path);
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
    const message = `${operation} failed in the ${this.transport.place} (exit ${exitCode})${detail ? `: ${detail}` : ""}`;
    throw new OperationError("unknown", message, { operation, path });
  }
}

/** A script for a resident shell: its arguments quoted into a `set --` line in front. */
function withArguments(script: string, args: string[]): string {
  return `set -- ${args.map(shellQuote).join(" ")}\n${script}`;
}

/** Paths reach the environment as exec arguments, never as text: absolute and NUL-free. */
export function checkScriptPath(path: string, operation: string): void {
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

function withoutNewline(out: Buffer): string {
  const text = out.toString("utf8");
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}
