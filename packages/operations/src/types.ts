import type { EnvironmentDescription } from "./environment.js";
import type { OutputCut } from "./output-cut.js";
import type { SandboxOptions, SandboxReport } from "./sandbox.js";

/** Kind of a filesystem entry as an environment reports it. */
export type FileType = "file" | "directory" | "symlink" | "other";

/** What `stat` and `lstat` return. */
export interface FileStat {
  /** `stat` follows links, so only `lstat` reports `"symlink"`. */
  type: FileType;
  /** Size in bytes (for a link from `lstat`: the length of its target string). */
  size: number;
  /** Last modification time, milliseconds since the epoch. */
  mtimeMs: number;
  /** Permission bits (`mode & 0o7777`), e.g. `0o644`. */
  mode: number;
}

/** One entry of `readdir`. `type` is the entry's own type: a link is `"symlink"`. */
export interface DirEntry {
  name: string;
  type: FileType;
}

/** One entry of {@link Operations.listTree}. */
export interface TreeEntry {
  /** Path relative to the listed root, `/`-separated. */
  path: string;
  /** The entry's own type: links are not followed. */
  type: FileType;
  /** `lstat` size and mtime (ms since the epoch); 0 for directories, which are not `lstat`ed. */
  size: number;
  mtimeMs: number;
}

/** What {@link Operations.listTree} saw. */
export interface TreeListing {
  entries: TreeEntry[];
  /** False when the listing stopped at `maxEntries` or at `timeBudgetMs`. */
  complete: boolean;
}

/** Options of {@link Operations.watchTree}. */
export interface WatchTreeOptions {
  /**
   * Directories to watch, relative to the root, `/`-separated (`""` is the root): usually every
   * directory a listing of the tree entered. A change directly inside one of them is reported.
   */
  directories: readonly string[];
}

/**
 * What changed in a watched tree since the last {@link TreeWatch.changes} (or since the watch
 * began): the paths, relative to the root, of entries that may have been created, changed,
 * removed or renamed. `lost` when the watch cannot tell (more changes than it keeps, a directory
 * it could not watch, an error): list the tree again.
 */
export type TreeChanges = { lost: false; paths: string[] } | { lost: true };

/** A watch on a tree, from {@link Operations.watchTree}. */
export interface TreeWatch {
  /**
   * The changes since the last call, once every change made before this call has been
   * delivered. After `lost` the watch stays lost: close it and start another.
   */
  changes(): Promise<TreeChanges>;
  /** Also watches these directories (relative to the root); one watched already is watched anew. */
  watch(directories: readonly string[]): void;
  /** Ends the watch. Idempotent. */
  close(): void;
}

/** Options every call accepts. */
export interface CallOptions {
  /**
   * Stops the call promptly; it then rejects with an `aborted` OperationError. `undefined` is
   * accepted so a caller can pass its own optional signal along (`exactOptionalPropertyTypes`).
   */
  signal?: AbortSignal | undefined;
}

/** Options of {@link Operations.listTree}. */
export interface ListTreeOptions extends CallOptions {
  /** Most entries listed (files, links and directories). */
  maxEntries: number;
  /** Longest the listing may take, ms. */
  timeBudgetMs: number;
  /** Directory names (e.g. `.git`, `node_modules`) listed as entries but not entered. */
  skipDirectories?: readonly string[];
}

/** Options for `readFile`. */
export interface ReadFileOptions extends CallOptions {
  /** Refuse (code `too_large`) a file larger than this many bytes instead of reading it. */
  maxBytes?: number;
}

/** Options for `openRead`. */
export interface OpenReadOptions extends CallOptions {
  /** Byte offset to start at (default 0). Reading the end of a huge file must not read the start. */
  start?: number;
  /**
   * Memory to read the next chunk into, for a consumer that is done with each chunk when it asks
   * for the next one: reading straight into a WebAssembly module's memory, or into two buffers
   * used in turn, saves a copy or an allocation per chunk. Called with the size the adapter
   * wants; the adapter reads at most the returned array's length (an empty one is
   * `invalid_argument`) and yields a view of it; `undefined` means a buffer of its own. Reading
   * one chunk ahead, an adapter asks for chunk k+1's memory while chunk k is still with the
   * consumer, so hand out two regions in turn. Adapters whose bytes arrive from another process
   * (SSH, Docker) may ignore it: their chunks are then buffers of their own.
   */
  into?: (size: number) => Uint8Array | undefined;
}

/** Options for `writeFile`. */
export interface WriteFileOptions extends CallOptions {
  /**
   * Permission bits for a new file (default `0o644` before umask). An existing file keeps its
   * own mode whatever this says.
   */
  mode?: number;
  /**
   * A directory (absolute; links in it are resolved once) the write must stay inside: the usual
   * caller is a tool passing the workspace root its path policy checked. The adapter then makes
   * sure, as close to the rename as its environment allows, that the directory the file lands in
   * really lies inside `within` even if a directory of the path is swapped for a link or moved
   * during the write, and fails with `outside_root` (nothing written, no temp file left) when
   * it does not. How close each adapter gets is documented with the adapter.
   */
  within?: string;
  /**
   * A condition on the file being replaced, checked right before the rename: the write happens
   * only if the target (a link's final target) still holds exactly these bytes (`sha256`, lower-case
   * hex of the whole content) or still does not exist (`absent`). Otherwise it fails with
   * `changed`: nothing written, no temp file left. This is how a caller that read a file, changed
   * it and writes it back makes sure it does not overwrite a change made in between by another
   * writer (another host process, another adapter, an editor).
   *
   * An adapter must make the compare and the rename one step for every writer that uses `expect`
   * on the same file: the project's adapters take the file's write lock
   * ({@link writeLockName}) around them, so two writers in different processes (or hosts) never
   * both pass the check and then both rename. A writer that uses no lock (an editor, `sed -i`)
   * can still land between the compare and the rename; keep that window as short as the
   * environment allows (no round trip to the host inside it) and document it.
   *
   * @example
   * ```ts
   * const before = await ops.readFile(path);
   * try {
   *   await ops.writeFile(path, edit(before), { expect: { sha256: sha256Hex(before) } });
   * } catch (error) {
   *   if (isOperationError(error, "changed")) retryOnFreshContent();
   *   else throw error;
   * }
   * ```
   */
  expect?: WriteExpectation;
}

/**
 * What the file a {@link WriteFileOptions.expect} write replaces must hold right before the
 * rename: exactly the bytes whose sha256 (lower-case hex) is given, or nothing at all (no file;
 * a dangling link counts as no file).
 */
export type WriteExpectation = { sha256: string } | { absent: true };

/** Options for `mkdir`. */
export interface MkdirOptions extends CallOptions {
  /** Create missing parents and accept an existing directory (like `mkdir -p`). */
  recursive?: boolean;
}

/** Options for `remove`. */
export interface RemoveOptions extends CallOptions {
  /** Remove a directory with its contents. Without it a non-empty directory fails with `exists`. */
  recursive?: boolean;
  /** Succeed when the path does not exist. */
  force?: boolean;
}

/** Which shell runs an `exec` command. */
export type ShellKind = "bash" | "pwsh" | "sh";

/** One piece of command output, in arrival order. */
export interface OutputChunk {
  /** Monotonic sequence number starting at 0, shared by both streams. */
  seq: number;
  stream: "stdout" | "stderr";
  bytes: Uint8Array;
}

/** What `exec` knows of a command as soon as it started (see `ExecOptions.onSpawn`). */
export interface ExecSpawn {
  /**
   * Process id of the command's shell in its environment: this machine, the remote host, or the
   * container's process namespace.
   */
  pid: number;
  /**
   * Its process group id, the group a stop signals. The command leads its own group, so on the
   * adapters of this project it equals `pid`.
   */
  pgid: number;
  /** How the command is sandboxed, when it is (then `pid` and `pgid` are the sandbox's own ids). */
  sandbox?: SandboxReport;
}

/**
 * Options for `exec`.
 *
 * @example
 * ```ts
 * const result = await ops.exec("npm test", { shell: "bash", cwd: "/repo", timeoutMs: 120_000,
 *   onChunk: (c) => process.stdout.write(c.bytes) });
 * if (result.status === "timed-out") ...
 * ```
 */
export interface ExecOptions extends CallOptions {
  /** Shell that interprets `command`: `bash -c`, `sh -c` or `pwsh -NoProfile -NonInteractive -Command`. */
  shell: ShellKind;
  /** Working directory (absolute, in the environment's syntax). */
  cwd: string;
  /**
   * Environment for the command. Merged over the environment's base environment; a value of
   * `undefined` removes a variable.
   */
  env?: Record<string, string | undefined>;
  /** Kill the command (whole process tree) after this many milliseconds. No timeout when omitted. */
  timeoutMs?: number;
  /** Milliseconds between SIGTERM and SIGKILL (default 2000). */
  killGraceMs?: number;
  /**
   * Called once as soon as the command's process has started, with the ids its environment
   * reports, so a caller can record or show them while it runs (`ExecCleanup.pid` comes only
   * with the result). Not called when the command could not start. Locally it comes before any
   * chunk; over SSH and in a container when the adapter's wrapper reports the id, which may be
   * after the first chunks. Must not throw (a throw is ignored).
   *
   * @example
   * ```ts
   * await ops.exec("npm test", { shell: "bash", cwd, onSpawn: ({ pid }) => log(`started pid ${pid}`) });
   * ```
   */
  onSpawn?: (spawn: ExecSpawn) => void;
  /**
   * Called once when the command has ended and the adapter's cleanup is done (the `cleanup` that
   * `exec` will report), before `exec` resolves: the environment may still be finishing the
   * output file. When `cleanup` is `confirmed` with `escapesChecked`, no process of the command
   * is left, so what it changed in the file system is final, and a caller can start work that
   * needs that (the audit's after snapshot of the working directory) while the output is
   * finished. Optional for an adapter: without it that work waits until `exec` resolves. Not
   * called when the command could not start. Must not throw (a throw is ignored).
   */
  onEnded?: (cleanup: ExecCleanup) => void;
  /** Receives output chunks in arrival order. Must not throw. */
  onChunk?: (chunk: OutputChunk) => void;
  /**
   * When set, the environment itself appends all output (both streams, arrival order) to this
   * file, in its own filesystem. `onChunk` may then be skipped by the adapter for speed; the
   * host reads back what it needs.
   */
  outputPath?: string;
  /**
   * When `outputPath` is set: still deliver chunks to `onChunk` (default true). Set false for the
   * fast path where the environment writes the file and the host reads only the tail. On that
   * path an adapter may send both streams through one descriptor to keep their order; it then
   * cannot split them: `stdoutBytes` counts all bytes appended to the file and `stderrBytes` is 0.
   */
  streamChunks?: boolean;
  /**
   * When `outputPath` is set: the output budget, the most bytes of this command's output the file
   * keeps, enforced where the file is written (the environment's own writer, so a runaway command
   * cannot fill the disk of a remote host or a container). Output past it does not stop the
   * command (its timeout bounds the time): the file keeps the first half of the budget
   * (`outputHeadBytes`) as it comes and a rolling window of the last half (`outputTailBytes`),
   * appended after a marker line (`outputCutMarker`, stating the bytes dropped) once the command
   * ended; the result's `outputCut` gives the same numbers. Until then the file holds the head
   * only. Chunks still stream to `onChunk` whole. No limit when omitted.
   *
   * @example
   * ```ts
   * const result = await ops.exec("make", { shell: "bash", cwd, outputPath: log, outputLimitBytes: 256 * 2 ** 20 });
   * if (result.outputCut) ... // the log holds its first and last 128 MB, with the marker between
   * ```
   */
  outputLimitBytes?: number;
  /**
   * Run the command in an OS sandbox with this profile, or `false` to run it without one even
   * when the adapter sandboxes by default. Host code sets this, never a model. Replaces the
   * adapter's default field by field. An adapter that cannot enforce it rejects the call with
   * `not_supported` (the message says what is missing); it never runs the command unsandboxed.
   */
  sandbox?: SandboxOptions | false;
}

/** How a command ended. */
export type ExecStatus = "completed" | "failed" | "timed-out" | "cancelled" | "unknown";

/**
 * Which kill steps were sent and confirmed when a command had to be stopped: on timeout or
 * abort, and also after a normal exit when processes the command left in its group (`cmd &`)
 * had to be ended (then `note` says so and the status still follows the exit code).
 */
export interface ExecCleanup {
  /** SIGTERM was sent to the process tree. */
  termSent: boolean;
  /** SIGKILL was sent because the tree outlived the grace period. */
  killSent: boolean;
  /** The whole tree was observed gone. False means processes may still run: see `pid`. */
  confirmed: boolean;
  /**
   * The adapter also looked for processes that left the command's process group (`setsid`,
   * `nohup`, double forks) by an environment marker every descendant inherits, and ended them:
   * `confirmed` then covers those too. Absent when only the group or tree was checked; a caller
   * that must not leave escaped processes behind then has to look for them itself.
   */
  escapesChecked?: boolean;
  /** Process (group) id of the command in its environment, when known. */
  pid?: number;
  /** Free-form note from the adapter (e.g. why cleanup could not be confirmed). */
  note?: string;
}

/**
 * What `exec` resolves to. `exec` does not reject for a failing command: the exit code decides
 * `completed` (0) vs `failed`; a timeout is `timed-out`, never exit code 1.
 */
export interface ExecResult {
  status: ExecStatus;
  /** Exit code when the process exited by itself. */
  exitCode?: number;
  /** Signal name when the process was ended by a signal, e.g. `"SIGTERM"`. */
  signal?: string;
  elapsedMs: number;
  stdoutBytes: number;
  stderrBytes: number;
  /** The output went past `ExecOptions.outputLimitBytes`: what the output file kept. */
  outputCut?: OutputCut;
  cleanup: ExecCleanup;
  /** How the command was sandboxed, with what the sandbox refused; absent when it was not. */
  sandbox?: SandboxReport;
}

/** A grep request, the same for every adapter. */
export interface GrepRequest {
  /** Regular expression (Rust/PCRE-like syntax, or a literal when `literal`). Never parsed as a flag. */
  pattern: string;
  /** Directory or file to search (absolute). */
  path: string;
  /**
   * Only files whose path relative to `path` matches this glob (same syntax and rules as
   * `FilesRequest.glob`).
   */
  glob?: string;
  ignoreCase?: boolean;
  literal?: boolean;
  /** Lines of context before and after each match. */
  context?: number;
  /** Stop after this many matches in total (the search process is stopped, not drained). */
  maxMatches?: number;
  /** Include files that .gitignore excludes. */
  includeIgnored?: boolean;
  /**
   * Characters of a line an event carries (default `GREP_MAX_LINE_CHARS`, 4096); a longer line
   * is cut and its event says `truncated`. No adapter sends or holds a whole huge line: a
   * search through a file with one 100 MB line costs what the search costs, not the line.
   */
  maxLineLength?: number;
  /**
   * Deliver the files in path order (see `SearchOperations.sortsByPath`), so a caller that wants
   * the first results by path can stop reading early. A search that does not sort ignores it.
   */
  sortByPath?: boolean;
}

/**
 * One grep result line. `path` is relative to the request `path` with POSIX separators (the
 * file's name when the request `path` is a file). `line` has no line terminator (`\n` or
 * `\r\n`); bytes that are not UTF-8 are decoded with replacement characters. `truncated`:
 * `line` is only the start of the line (see `GrepRequest.maxLineLength`).
 */
export type GrepEvent =
  | { type: "match"; path: string; lineNumber: number; line: string; truncated?: boolean }
  | { type: "context"; path: string; lineNumber: number; line: string; truncated?: boolean };

/** A file-listing request. */
export interface FilesRequest {
  /** Directory to list under (absolute). */
  path: string;
  /**
   * Glob (gitignore syntax) the relative path must match: a pattern without `/` matches a name
   * at any depth (`*.ts`), one with `/` is anchored at `path` (`src/*.ts`, `src/deep/**`); `!`
   * leaves out what it matches. A glob only narrows: ignore rules apply to whatever it keeps
   * (unless `includeIgnored`), and `.git` is never listed, whatever the glob.
   */
  glob?: string;
  /** Stop after this many paths. */
  limit?: number;
  /** Include files that .gitignore excludes. */
  includeIgnored?: boolean;
  /** Deliver the paths in path order (see `SearchOperations.sortsByPath`). */
  sortByPath?: boolean;
}

/** Optional native search of an environment (ripgrep where available). */
export interface SearchOperations {
  /**
   * Streams matches and context lines, per file in line order (file order unspecified). Hidden
   * files included, `.git` excluded, .gitignore files honoured whether or not the tree is a git
   * work tree, a nested repository's own .gitignore inside it. Symbolic links below `path` are
   * not followed: a link (to a file or a directory) is neither searched nor listed, nor is
   * anything behind it, so a link loop or a link out of the workspace cannot widen a search.
   * Errors surface from the iterator:
   * `invalid_argument` for an invalid pattern or glob (with the engine's message), `not_found`
   * for a missing path, `aborted`. Stopping the loop early stops the search process.
   */
  grep(request: GrepRequest, options?: CallOptions): AsyncIterable<GrepEvent>;
  /**
   * Streams file paths (regular files only, order unspecified) relative to `request.path`, POSIX
   * separators, with the same ignore and link rules as `grep`.
   */
  files(request: FilesRequest, options?: CallOptions): AsyncIterable<string>;
  /**
   * True when `sortByPath` is honoured: the files then arrive in the order of a sorted directory
   * walk (segment by segment, each segment by Unicode code point, which is ripgrep's
   * `--sort path`), each file's lines in line order. Whoever stops early on that order relies on
   * it, so a search that cannot keep it must leave this unset.
   */
  readonly sortsByPath?: boolean;
}

/**
 * One environment: a machine, a remote host or a container. Every tool touches the world only
 * through this object. Paths are absolute, in the environment's own syntax. Every method takes
 * an `AbortSignal` and stops promptly when it fires (rejecting with code `aborted`). Failures
 * reject with an `OperationError` with a stable `code`.
 */
export interface Operations {
  /** `"local"`, `"ssh://user@host:22"`, `"docker://<container>"`. Keys caches such as the mutation queue. */
  readonly id: string;
  /** Path syntax and shell family of the environment. */
  readonly platform: "posix" | "win32";
  /** Home directory in the environment, when known (used to expand `~`). */
  readonly homeDir?: string;
  /**
   * What environment this is and how it is reached (host, user, container, engine), for audit
   * records and messages. Optional: records of an adapter without it carry only `id`.
   */
  readonly environment?: EnvironmentDescription;

  /** Follows links. `not_found` for a missing path or a dangling/looping link. */
  stat(path: string, options?: CallOptions): Promise<FileStat>;
  /** Does not follow a final link: its type is `"symlink"`. */
  lstat(path: string, options?: CallOptions): Promise<FileStat>;
  /** Canonical absolute path with every link resolved. `not_found` when any part is missing. */
  realpath(path: string, options?: CallOptions): Promise<string>;
  /** Target string of a symbolic link, as stored. `invalid_argument` when `path` is not a link. */
  readlink(path: string, options?: CallOptions): Promise<string>;
  /**
   * Whole file, byte-exact (no newline or BOM handling). `is_directory` for a directory,
   * `too_large` above `maxBytes` (checked before reading), `not_found`, `not_directory` when a
   * parent is a file, `invalid_argument` for a path with a NUL byte or a relative path,
   * `special_file` for a FIFO, socket or device (checked without opening it, so a FIFO with no
   * writer cannot block the call or the process).
   */
  readFile(path: string, options?: ReadFileOptions): Promise<Uint8Array>;
  /**
   * Streams the file from byte `start` in chunks; memory stays constant whatever the file size
   * and the bytes before `start` are not read. Nothing is yielded from `start` at or past the
   * end. Errors (`not_found`, `is_directory`, `special_file`, `aborted` between chunks) surface
   * from the iterator.
   */
  openRead(path: string, options?: OpenReadOptions): AsyncIterable<Uint8Array>;
  /**
   * ATOMIC replace: writes a temp file in the same directory, then renames it over `path`, so a
   * concurrent reader sees the old or the new content, never a mix. An existing file keeps its
   * mode. The parent directory must exist (`not_found` otherwise). Writing through a link
   * replaces the link's target, not the link. A file the caller may not write is
   * `permission_denied`, although a rename could replace it; a FIFO, socket or device is
   * `special_file`. The temp file is named by `tempFileName` (so a sweep can tell a dead writer's
   * leftover, and tools can hide it); temp files of dead writers in the same directory are
   * removed along the way. With `within`, a directory outside that root is `outside_root`. A
   * failure after the temp file was created is never `not_found`: the temp file is removed
   * through the same directory it was created in, never a path resolved again.
   */
  writeFile(path: string, data: Uint8Array | string, options?: WriteFileOptions): Promise<void>;
  /**
   * Creates a directory: `exists` if the path exists (unless `recursive` and it is a directory),
   * `not_found` for a missing parent without `recursive`, `not_directory` when a parent is a file.
   */
  mkdir(path: string, options?: MkdirOptions): Promise<void>;
  /** Entries of a directory (no `.`/`..`), in no particular order. `not_directory` for a file. */
  readdir(path: string, options?: CallOptions): Promise<DirEntry[]>;
  /**
   * Removes a file, link (never its target, also a link to a directory) or directory. A
   * non-empty directory needs `recursive` (`exists` otherwise). `not_found` unless `force`.
   */
  remove(path: string, options?: RemoveOptions): Promise<void>;
  /** Creates a symbolic link at `path` whose target string is `target`, stored as given. `exists` if `path` exists. */
  symlink(target: string, path: string, options?: CallOptions): Promise<void>;
  /** Renames within the environment (atomic on one filesystem), replacing a file at `to`. */
  rename(from: string, to: string, options?: CallOptions): Promise<void>;
  /** Sets permission bits (follows links). */
  chmod(path: string, mode: number, options?: CallOptions): Promise<void>;

  /**
   * Runs `command` in `options.shell` in its own process group, stdin closed. Resolves with an
   * {@link ExecResult} for any way the command ends; rejects only when it could not be started:
   * `aborted` when the signal had already fired (an abort while running resolves `cancelled`),
   * `not_found`/`not_directory` for the cwd, `not_supported` when the shell is not installed,
   * `invalid_argument` for a bad option, `connection_lost`. The call returns when the shell has
   * exited and its output pipes closed, or a short idle grace after exit when a background
   * child still holds them; processes left in the command's group are then ended (see
   * `ExecCleanup`): a command's processes do not outlive the call.
   */
  exec(command: string, options: ExecOptions): Promise<ExecResult>;

  /**
   * Lists the tree under the directory `root` in one call, breadth first: every entry's own type,
   * size and mtime of every non-directory, links not followed, directories named in
   * `skipDirectories` listed but not entered, at most `maxEntries` entries and `timeBudgetMs` of
   * listing (then `complete: false`). An entry that cannot be read is left out; `root` itself
   * failing rejects (`not_found`, `not_directory`, ...). Optional: callers that find it absent
   * walk with `readdir` + `lstat`, one call per entry.
   */
  listTree?(root: string, options: ListTreeOptions): Promise<TreeListing>;

  /**
   * Watches directories of the tree at `root` for changes, so a listing of it can be brought up
   * to date by looking at the changed paths only (the audit's workspace snapshots use it). Throws
   * when `root` cannot be watched. Optional: without it, callers list the tree again. A watch
   * must not keep the host process alive.
   */
  watchTree?(root: string, options: WatchTreeOptions): TreeWatch;

  /** Native search, when the environment has it. Tools fall back to a portable walk otherwise. */
  readonly search?: SearchOperations;

  /** Releases connections and processes. Idempotent. */
  dispose?(): Promise<void>;
}

/**
 * What every tool's path policy calls: `realpath` to resolve a path, `lstat` + `readlink` to
 * follow a link that does not resolve (a dangling link to a new file).
 */
type PathPolicyCalls = "id" | "platform" | "stat" | "realpath" | "lstat" | "readlink";

/**
 * What each tool needs from `Operations`, path policy included: a host may hand a partial
 * adapter to one tool. The read tool: `stat`, `openRead` (text), `readFile` (images),
 * `readdir` (near-miss names).
 */
export type ReadOperations = Pick<Operations, PathPolicyCalls | "readFile" | "openRead" | "readdir">;
/** The write tool: `readFile` (style and staleness of an existing file), `mkdir`, `writeFile`. */
export type WriteOperations = Pick<Operations, PathPolicyCalls | "readFile" | "writeFile" | "mkdir">;
/** The edit tool: reads the file and writes it back atomically. */
export type EditOperations = Pick<Operations, PathPolicyCalls | "readFile" | "writeFile">;
/** The ls tool: `readdir`, `lstat` (sizes), `readlink` (link targets), `readFile` (ignore files). */
export type LsOperations = Pick<Operations, PathPolicyCalls | "readdir" | "readFile">;
/** The find tool: native `search` when offered, else a walk with `readdir` and ignore files. */
export type FindOperations = Pick<Operations, PathPolicyCalls | "readdir" | "readFile" | "search">;
/** The grep tool: native `search` when offered, else a walk that streams files with `openRead`. */
export type GrepOperations = Pick<
  Operations,
  PathPolicyCalls | "readdir" | "readFile" | "openRead" | "search"
>;
/** The bash and powershell tools: `exec`, plus the files of output artifacts and job metadata. */
export type ShellOperations = Pick<
  Operations,
  PathPolicyCalls | "exec" | "readFile" | "openRead" | "mkdir" | "writeFile" | "remove" | "chmod"
>;
