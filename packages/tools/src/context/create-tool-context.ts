/**
 * Builds the {@link ExtensionContext} tools run with: local operations unless told otherwise,
 * the workspace policy, the environment's shared mutation queue, a read ledger, artifacts,
 * a headless UI and a silent logger.
 */

import { randomUUID } from "node:crypto";
import type {
  ArtifactStore,
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
import { createLocalOperations } from "@tackle/operations-local";
import { createWorkspacePolicy } from "../path/workspace-policy.js";
import { createArtifactStore } from "./artifacts.js";
import { createFileMutationQueue } from "./mutation-queue.js";
import { createReadLedger } from "./read-ledger.js";

/** Options for {@link createToolContext}. Only `cwd` is required. */
export interface ToolContextOptions {
  /** Working directory, absolute in the environment's syntax. */
  cwd: string;
  /** The environment. Default: this machine (`createLocalOperations()`). */
  operations?: Operations;
  /** Workspace roots. Default `[cwd]`. */
  roots?: readonly string[];
  /** Paths outside the roots: `"deny"` (default), `"read-only"` or `"allow"`. */
  outside?: OutsideWorkspacePolicy;
  /** A ready-made policy (overrides `roots` and `outside`). */
  workspace?: WorkspacePolicy;
  /** Default: the environment's shared queue (one per `operations.id`). */
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
  services?: Record<string, unknown>;
}

/**
 * One queue per environment: every context on the same `operations.id` shares it, so two
 * sessions on one machine still serialise their edits of one file. The queue resolves keys
 * with the latest `Operations` object seen for that id (they all reach the same files).
 */
const queues = new Map<string, { queue: FileMutationQueue; operations: Operations }>();

/** The file mutation queue shared by every context on `operations`' environment. */
export function getFileMutationQueue(operations: Operations): FileMutationQueue {
  let entry = queues.get(operations.id);
  if (!entry) {
    const holder = { operations } as { queue: FileMutationQueue; operations: Operations };
    holder.queue = createFileMutationQueue({
      get platform() {
        return holder.operations.platform;
      },
      realpath: (path, options) => holder.operations.realpath(path, options),
      lstat: (path, options) => holder.operations.lstat(path, options),
      readlink: (path, options) => holder.operations.readlink(path, options),
    });
    entry = holder;
    queues.set(operations.id, entry);
  }
  entry.operations = operations;
  return entry.queue;
}

/**
 * Creates an {@link ExtensionContext} for the tools.
 *
 * @example
 * ```ts
 * const ctx = createToolContext({ cwd: process.cwd() });
 * const read = wrapToolDefinition(createReadToolDefinition(), () => ctx);
 * ```
 */
export function createToolContext(options: ToolContextOptions): ExtensionContext {
  const operations = options.operations ?? createLocalOperations();
  const session = options.session ?? { id: randomUUID() };
  const logger = options.logger ?? silentLogger;
  const context: ExtensionContext = {
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
  };
  if (options.services) context.services = options.services;
  return context;
}
