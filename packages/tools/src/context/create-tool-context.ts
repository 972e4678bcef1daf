/**
 * Builds the session tools run with (a `ToolSession`; each call gets its own context made from
 * it): the given environment, the workspace policy, the environment's shared mutation queue, a
 * read ledger, artifacts, a headless UI, a silent logger and the session's state; plus the one
 * `dispose()` that ends what the session made.
 */

import { randomUUID } from "node:crypto";
import type { AuditSink } from "@tackle/agent-core";
import type {
  ArtifactStore,
  DiagnosticsSettings,
  FileMutationQueue,
  Logger,
  OutsideWorkspacePolicy,
  ReadLedger,
  SessionInfo,
  ToolSession,
  ToolUI,
  WorkspacePolicy,
} from "@tackle/extensions";
import { createHeadlessUI, SessionState, silentLogger } from "@tackle/extensions";
import type { Operations } from "@tackle/operations";
import {
  createArtifactStore,
  createReadLedger,
  createWorkspacePolicy,
  getFileMutationQueue,
  pathSyntax,
} from "@tackle/session";
import { withAuditRedaction } from "@tackle/session/audit";
import type { JobRegistry } from "../shell/jobs.js";
import { SHELL_JOBS } from "../shell/registry.js";
import { quoteValue } from "../tool-options.js";
import { type DisposeToolContextOptions, disposeToolContext } from "./dispose-tool-context.js";

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
  /**
   * The registry of the session's background jobs, for a host that manages jobs itself (e.g.
   * one registry shared by several contexts). Default: made on the first background job;
   * `dispose()` ends its jobs either way.
   */
  jobs?: JobRegistry;
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

/** A session made by {@link createToolContext}: what tools run with, and its end. */
export interface ToolContext extends ToolSession {
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

/** Every option of {@link createToolContext}: a misspelt one would be ignored without a word. */
const OPTION_NAMES = new Set<string>([
  "cwd",
  "operations",
  "disposeOperations",
  "roots",
  "outside",
  "workspace",
  "mutations",
  "artifacts",
  "reads",
  "ui",
  "logger",
  "session",
  "jobs",
  "audit",
  "diagnostics",
] satisfies (keyof ToolContextOptions)[]);

const OUTSIDE_POLICIES: readonly OutsideWorkspacePolicy[] = ["deny", "read-only", "allow"];

/** Throws on an unknown option or an `outside` policy that is not one of {@link OUTSIDE_POLICIES}. */
function checkContextOptions(options: ToolContextOptions): void {
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) {
      throw new TypeError(
        `createToolContext: unknown option ${name}. Options: ${[...OPTION_NAMES].join(", ")}.`,
      );
    }
  }
  if (options.outside !== undefined && !OUTSIDE_POLICIES.includes(options.outside)) {
    throw new TypeError(
      `createToolContext: option outside must be ${OUTSIDE_POLICIES.map((p) => `"${p}"`).join(", ")}; got ${quoteValue(options.outside)}.`,
    );
  }
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
  checkContextOptions(options);
  checkAbsolute("cwd", options.cwd, operations);
  for (const root of options.roots ?? []) checkAbsolute("roots", root, operations);
  const session = options.session ?? { id: randomUUID() };
  const logger = options.logger ?? silentLogger;
  let disposed: Promise<void> | undefined;
  const state = new SessionState();
  if (options.jobs) state.set(SHELL_JOBS, options.jobs);
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
    logger,
    session,
    state,
    dispose(disposeOptions) {
      // From now on making a call's context fails with stale_context; calls already running fail
      // the same way when they next make an artifact or a job (the store and the registry refuse
      // after their dispose). Copies of the context share its state, so they are closed too.
      state.close(`this tool session (${session.id})`);
      disposed ??= (async () => {
        await disposeToolContext(context, disposeOptions);
        if (options.disposeOperations) await operations.dispose?.();
      })();
      return disposed;
    },
  };
  if (options.audit) context.audit = withAuditRedaction(options.audit);
  if (options.diagnostics) context.diagnostics = options.diagnostics;
  return context;
}
