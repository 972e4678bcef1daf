import type { AuditRecorder, AuditSink } from "@tackle/agent-core";
import type { Operations } from "@tackle/operations";
import type { DiagnosticsSettings } from "./diagnostics.js";
import type { SessionState } from "./session-state.js";

/** How paths outside the workspace roots are treated. */
export type OutsideWorkspacePolicy = "deny" | "read-only" | "allow";

/** What a path is resolved for: reads may be allowed where writes are not. */
export type PathAccess = "read" | "write";

/** A path after normalisation and policy checks. */
export interface ResolvedPath {
  /** Absolute path the input was taken to mean (exact name first, then `~`, `@`, `file://` and look-alike readings), resolved against cwd. */
  absolute: string;
  /** Real path (links resolved; for a missing file, its nearest existing parent plus the rest). */
  real: string;
  /** Path relative to cwd for display (POSIX separators), or the absolute path when outside. */
  display: string;
  /** Whether the path exists now. */
  exists: boolean;
  /** True when `real` lies inside one of the workspace roots. */
  insideWorkspace: boolean;
  /**
   * The workspace root (real path) that contains `real`, when inside. Writes pass it to
   * `Operations.writeFile` as `within`, so a link swapped in after this check cannot take the
   * write outside.
   */
  root?: string;
}

/**
 * The path policy of a session: normalises model-supplied paths and checks them against the
 * workspace roots through `Operations`, so it holds remotely too.
 */
export interface WorkspacePolicy {
  /** Absolute roots (real paths) the model may work in. */
  readonly roots: readonly string[];
  readonly outside: OutsideWorkspacePolicy;
  /**
   * Resolves `input` against `cwd` and checks it. Throws a `ToolError` with code
   * `outside_workspace` (showing the resolved path) when policy denies `access`.
   */
  resolve(
    input: string,
    access: PathAccess,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<ResolvedPath>;
  /** Adds a root (e.g. the artifact directory, or an MCP client's root). */
  addRoot(root: string): void;
  /** Replaces all roots (e.g. when MCP roots change). */
  setRoots(roots: readonly string[]): void;
}

/**
 * Serialises mutations of one file per environment, keyed by real path, FIFO.
 */
export interface FileMutationQueue {
  /**
   * Runs `fn` when every earlier mutation of `path` (and any exclusive section) has settled.
   * The key is the real path, so two spellings of one file share a queue. With `real: true`,
   * `path` already is one (the `real` of a `ResolvedPath`) and is keyed as given, so a path the
   * tool resolved is not resolved again (a round trip on a remote environment).
   */
  withFileMutation<T>(
    path: string,
    fn: () => Promise<T>,
    options?: { signal?: AbortSignal | undefined; real?: boolean },
  ): Promise<T>;
  /**
   * Runs `fn` while no file mutation runs, and holds new ones until it settles. The shell tools
   * take it so no edit interleaves with a running command.
   */
  withExclusive<T>(fn: () => Promise<T>, options?: { signal?: AbortSignal | undefined }): Promise<T>;
}

/** A stored long output the model can page with `read`. */
export interface ArtifactInfo {
  id: string;
  /** Absolute path in the environment that holds it. */
  path: string;
  size: number;
  /** Hex sha256 of the content, when known. */
  sha256?: string;
  createdAt: number;
}

/** Where long outputs are kept (private directory per session, files 0600, unguessable names). */
export interface ArtifactStore {
  /** Directory of this session's artifacts (absolute; created on first use with mode 0700). */
  directory(): Promise<string>;
  /** Reserves a new, unguessable artifact path (file created empty with mode 0600). */
  create(options: {
    prefix: string;
    extension?: string;
    signal?: AbortSignal | undefined;
  }): Promise<ArtifactInfo>;
  /** Records final size and hash of an artifact written by someone else (e.g. by the shell). */
  finalize(id: string, info: { size: number; sha256?: string }): void;
  list(): ArtifactInfo[];
  /** Removes the session's artifacts. */
  dispose(): Promise<void>;
}

/** What the model last read of a file, for staleness checks. */
export interface ReadRecord {
  /** Real path. */
  path: string;
  /**
   * Hex sha256 of the full file content when it was read, or, with `window`, of the bytes the
   * shown lines came from.
   */
  sha256: string;
  /** Set for a file too large to hash whole on every read: what `sha256` covers, and the file's size and mtime. */
  window?: ReadWindow;
  readAt: number;
}

/**
 * A read of part of a large file: `sha256` covers bytes `start` to `end` (exclusive) of a file
 * of `size` bytes last modified at `mtimeMs`. The file counts as unchanged while its size, its
 * mtime and those bytes are.
 */
export interface ReadWindow {
  start: number;
  end: number;
  size: number;
  mtimeMs: number;
}

/** Ledger of what the model has read, keyed by real path. */
export interface ReadLedger {
  /** Records a read: `sha256` of the whole content, or of `window`'s bytes when given. */
  record(path: string, sha256: string, window?: ReadWindow): void;
  get(path: string): ReadRecord | undefined;
  forget(path: string): void;
}

/** Interaction with a person, when there is one. */
export interface ToolUI {
  /** Asks a yes/no question. The headless default answers false (deny). */
  confirm(title: string, message: string, options?: { signal?: AbortSignal | undefined }): Promise<boolean>;
  notify(message: string, level?: "info" | "warning" | "error"): void;
}

/** Structured logging sink. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Session identity. */
export interface SessionInfo {
  id: string;
}

/**
 * The session a tool runs in: the environment and everything that lasts from call to call. A
 * plain object; each call gets its own {@link ExtensionContext} made from it (the session's
 * fields plus the call's `signal` and `call`), so nothing a call adds is seen by another.
 */
export interface ToolSession {
  /** Working directory, absolute in the environment's syntax. */
  cwd: string;
  operations: Operations;
  workspace: WorkspacePolicy;
  mutations: FileMutationQueue;
  artifacts: ArtifactStore;
  reads: ReadLedger;
  ui: ToolUI;
  logger: Logger;
  session: SessionInfo;
  /**
   * Where the session's audit trail goes (see `AuditSink`): tools add their evidence (paths,
   * processes, output, changes) to the record of each call. Absent: nothing is recorded.
   */
  audit?: AuditSink;
  /**
   * Feedback after a file tool changes a file: the syntax check (on unless `syntax: false`),
   * opt-in diagnostics providers (language servers), their time budget, and an event for UIs.
   * Absent: the syntax check only.
   */
  diagnostics?: DiagnosticsSettings;
  /**
   * What tools keep for the rest of the session (the shell's job registry, the artifact
   * directory made readable), under typed keys: `new SessionState()` for a new session.
   */
  state: SessionState;
}

/** The call a context was made for. One per call; never shared between calls. */
export interface CallInfo {
  /** The tool call's id (`""` for a check made before the call exists, such as `checkApproval`). */
  readonly id: string;
  /** The tool that runs. */
  readonly toolName: string;
  /** This call's record in the audit trail (a no-op recorder when the session has no sink). */
  readonly audit: AuditRecorder;
  /**
   * The tools the model has in this call, when the host said (tool sets from the factories do):
   * hints then name only these ("Use ls to list it" only where ls exists). Absent: unknown.
   */
  readonly toolNames?: readonly string[];
}

/**
 * Everything a tool needs, handed to `execute` at call time: the {@link ToolSession}'s fields,
 * the call's abort signal and the {@link CallInfo} of this call. Swapping the environment (local,
 * SSH, Docker) or the session means handing a different session to the context factory.
 */
export interface ExtensionContext extends ToolSession {
  /** The call's abort signal (the same one `execute` receives). */
  signal: AbortSignal | undefined;
  /** The call this context was made for. */
  call: CallInfo;
}
