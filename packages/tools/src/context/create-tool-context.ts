/**
 * Builds the {@link ExtensionContext} tools run with: the given environment, the workspace
 * policy, the environment's shared mutation queue, a read ledger, artifacts, a headless UI and
 * a silent logger; plus the one `dispose()` that ends what the session made.
 */

import { randomUUID } from "node:crypto";
import { type AuditSink, ToolError } from "@tackle/agent-core";
import type {
  ArtifactStore,
  DiagnosticsSettings,
  ExtensionContext,
  FileMutationQueue,
  Logger,
  OutsideWorkspacePolicy,
  ReadLedger,
  SessionInfo,
  ToolUI,
  WorkspacePolicy,
} from "@tackle/extensions";
import { createHeadlessUI, silentLogger } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import { withAuditRedaction } from "../audit/redact.js";
import { createWorkspacePolicy, pathSyntax } from "../path/workspace-policy.js";
import { quoteValue } from "../tool-options.js";
import { createArtifactStore } from "./artifacts.js";
import { type DisposeToolContextOptions, disposeToolContext } from "./dispose-tool-context.js";
import { getFileMutationQueue } from "./mutation-queue.js";
import { createReadLedger } from "./read-ledger.js";

/** Options for {@link createToolContext}. `cwd` and `operations` are required. */
export interface ToolContextOptions {
  /** Working directory, absolute in the environment's syntax. */
  cwd: string;
  /**
   * The environment: `createLocalOperations()`, `createSshOperations(...)`,
   * `createDockerOperations(...)` or your own. (`createLocalToolContext` from
   * `@tackle/tools/local` fills in this machine.)
   */
  operations: Operations;
  /** `dispose()` also disposes `operations`. For a context that is the adapter's only user. Default false. */
  disposeOperations?: boolean;
  /** Workspace roots. Default `[cwd]`. */
  roots?: readonly string[];
  /** Paths outside the roots: `"deny"` (default), `"read-only"` or `"allow"`. */
  outside?: OutsideWorkspacePolicy;
  /** A ready-made policy (overrides `roots` and `outside`). */
  workspace?: WorkspacePolicy;
  /** Default: the queue shared by every context on the same `operations` object. */
  mutations?: FileMutationQueue;
  /** Default: an artifact store in the environment's temp directory for this session. */
  artifacts?: ArtifactStore;
  /** Default: a new, empty ledger. Share one between contexts of one conversation. */
  reads?: ReadLedger;
  /** Default: headless (confirmations denied). */
  ui?: ToolUI;
  /** Default: silent. */
  logger?: Logger;
  /** Default: a random id. */
  session?: SessionInfo;
  /** Default: none; the call's signal is set per call by `wrapToolDefinition`. */
  signal?: AbortSignal;
  /** Host services (e.g. a shell job registry under `"shell.jobs"`), keyed by name. */
  services?: Record<string, unknown>;
  /**
   * Audit trail of the session's tool calls (default: none). Every event is redacted like model
   * output before it reaches the sink. Give `context.audit` to `invokeTool` or the loop too, so
   * a call's intent and end join the tools' own evidence.
   */
  audit?: AuditSink;
  /**
   * Feedback after file changes: the syntax check (on by default; `syntax: false` turns it off)
   * and opt-in diagnostics providers such as `createLanguageServerDiagnostics(...)`, which
   * `dispose()` ends. Default: the syntax check only.
   */
  diagnostics?: DiagnosticsSettings;
}

/** A context made by {@link createToolContext}: what tools run with, and the end of its session. */
export interface ToolContext extends ExtensionContext {
  /**
   * Ends everything the session made: background jobs not marked `keepAlive` (their records
   * stay on disk, so a later host still lists them), the session's artifacts (unless
   * `keepArtifacts`), and `operations` when the context was made with `disposeOperations`.
   * After it is called, tools running with this context fail with `stale_context` instead of
   * creating new artifacts or jobs nobody would end. Calling it again returns the same promise.
   * Running calls are not waited for: abort them first.
   */
  dispose(options?: DisposeToolContextOptions): Promise<void>;
}

/** Fields still readable once a context is disposed (what identifies it, and `dispose` itself). */
const READABLE_AFTER_DISPOSE = new Set<PropertyKey>(["dispose", "session", "cwd", "then"]);

function disposedError(session: SessionInfo): ToolError {
  return new ToolError(
    "stale_context",
    `Not run: this tool session (${session.id}) was closed by the host. Tell the user; a new session is needed to continue.`,
  );
}

/**
 * Throws unless `value` is an absolute path in the environment's syntax: a relative cwd or root
 * would make every path the tools resolve "outside the workspace".
 */
function checkAbsolute(name: string, value: unknown, operations: Operations): void {
  const syntax = pathSyntax(operations.platform);
  if (typeof value !== "string") {
    throw new TypeError(`createToolContext: ${name} must be an absolute path; got ${quoteValue(value)}.`);
  }
  if (!syntax.isAbsolute(value)) {
    const example = operations.platform === "win32" ? "C:\\work\\app" : "/work/app";
    throw new TypeError(
      `createToolContext: ${name} must be an absolute path in the environment's syntax (${operations.platform}, e.g. ${example}); got ${quoteValue(value)}.`,
    );
  }
}

/**
 * Creates the context of one session.
 *
 * @example
 * ```ts
 * const context = createToolContext({ cwd: "/srv/app", operations: createSshOperations(options) });
 * const { read, edit } = createTools({ context, names: ["read", "edit"] });
 * try { await runSession(read, edit); } finally { await context.dispose(); }
 * ```
 */
export function createToolContext(options: ToolContextOptions): ToolContext {
  const { operations } = options;
  if (operations === undefined || operations === null) {
    throw new TypeError(
      "createToolContext needs `operations` (the environment). For this machine use createLocalToolContext() from @tackle/tools/local, or pass createLocalOperations().",
    );
  }
  checkAbsolute("cwd", options.cwd, operations);
  for (const root of options.roots ?? []) checkAbsolute("roots", root, operations);
  const session = options.session ?? { id: randomUUID() };
  const logger = options.logger ?? silentLogger;
  let disposed: Promise<void> | undefined;
  const context: ToolContext = {
    cwd: options.cwd,
    operations,
    workspace:
      options.workspace ??
      createWorkspacePolicy({
        operations,
        cwd: options.cwd,
        ...(options.roots ? { roots: options.roots } : {}),
        ...(options.outside ? { outside: options.outside } : {}),
      }),
    mutations: options.mutations ?? getFileMutationQueue(operations),
    artifacts: options.artifacts ?? createArtifactStore({ operations, sessionId: session.id }),
    reads: options.reads ?? createReadLedger(),
    ui: options.ui ?? createHeadlessUI(logger),
    signal: options.signal,
    logger,
    session,
    dispose(disposeOptions) {
      disposed ??= (async () => {
        await disposeToolContext(context, disposeOptions);
        if (options.disposeOperations) await operations.dispose?.();
      })();
      return disposed;
    },
  };
  if (options.services) context.services = options.services;
  if (options.audit) context.audit = withAuditRedaction(options.audit);
  if (options.diagnostics) context.diagnostics = options.diagnostics;
  // Reads are checked (not just calls): tools keep the context for the whole call.
  return new Proxy(context, {
    get(target, property, receiver) {
      if (disposed !== undefined && typeof property === "string" && !READABLE_AFTER_DISPOSE.has(property)) {
        throw disposedError(session);
      }
      return Reflect.get(target, property, receiver);
    },
  });
}
