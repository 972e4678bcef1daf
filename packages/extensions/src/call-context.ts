import { type AuditEnvironment, createAuditRecorder, NO_AUDIT } from "@tackle/agent-core";
import type { Operations } from "@tackle/operations";
import { auditedWorkspace } from "./audited-workspace.js";
import type { CallInfo, ExtensionContext, ToolSession } from "./context.js";
import type { ToolAnnotations } from "./tool-definition.js";

/** What {@link contextForCall} needs to know about the call. */
export interface CallContextOptions {
  /** The tool call's id (`""` for a check ahead of the call). */
  toolCallId: string;
  toolName: string;
  /** The call's abort signal; it becomes `ctx.signal`. */
  signal: AbortSignal | undefined;
  /** The tool's annotations: a read-only tool's record says it changes nothing. */
  annotations?: ToolAnnotations | undefined;
  /** The tools the model has in this call (see {@link CallInfo.toolNames}). */
  toolNames?: readonly string[] | undefined;
  /**
   * Whether this context opens the call's record (the environment, a read-only tool's note, an
   * audited workspace policy). Default true; false for the contexts hooks get, so a call's record
   * opens once, with the tool.
   */
  opensRecord?: boolean;
}

/**
 * The context of one call: a new plain object with the session's fields (those of
 * {@link ToolSession}; a host's extra fields stay on the session), the call's `signal` and its
 * {@link CallInfo}. When the session is audited, the call's record opens with the
 * environment it runs in (and, for a tool annotated read-only, that it changes nothing), and
 * the context's workspace policy records every path decision in it.
 *
 * `wrapToolDefinition` calls this for every call; call it yourself only to run a definition's
 * `execute` by hand.
 *
 * @example
 * ```ts
 * const ctx = contextForCall(session, { toolCallId: "call-1", toolName: "read", signal: undefined });
 * const result = await readDefinition.execute("call-1", { path: "a.ts" }, undefined, undefined, ctx);
 * ```
 */
export function contextForCall(session: ToolSession, options: CallContextOptions): ExtensionContext {
  // A host writing JavaScript may hand in something else: say what is missing, not a TypeError.
  if (typeof session?.state?.assertOpen !== "function") throw new TypeError(notASessionMessage(session));
  // A closed session (disposed by its host) runs nothing more.
  session.state.assertOpen();
  // A check before the call exists has no record to add to.
  const sink = options.toolCallId === "" ? undefined : session.audit;
  const audit =
    sink === undefined
      ? NO_AUDIT
      : createAuditRecorder(sink, { callId: options.toolCallId, sessionId: session.session.id });
  const call: CallInfo = {
    id: options.toolCallId,
    toolName: options.toolName,
    audit,
    ...(options.toolNames !== undefined ? { toolNames: options.toolNames } : {}),
  };
  // Field by field: a guarded session (disposed, or of an unloaded runtime) throws here, and
  // every context has one shape.
  const context: ExtensionContext = {
    cwd: session.cwd,
    operations: session.operations,
    workspace: session.workspace,
    mutations: session.mutations,
    artifacts: session.artifacts,
    reads: session.reads,
    ui: session.ui,
    logger: session.logger,
    session: session.session,
    state: session.state,
    signal: options.signal,
    call,
  };
  const { audit: sessionAudit, diagnostics } = session;
  if (sessionAudit !== undefined) context.audit = sessionAudit;
  if (diagnostics !== undefined) context.diagnostics = diagnostics;
  if (sink === undefined || options.opensRecord === false) return context;
  audit.record({
    kind: "decision",
    source: "context",
    gate: "environment",
    verdict: "note",
    environment: environmentOf(session.operations),
  });
  if (options.annotations?.readOnlyHint === true) {
    // Declared by the tool: a read-only tool's record says so instead of leaving the piece empty.
    audit.record({ kind: "side-effect", source: "tool", method: "none", files: [], note: "read-only tool" });
  }
  context.workspace = auditedWorkspace(session.workspace, audit);
  return context;
}

/**
 * Every field an {@link ExtensionContext} may have (the shape `contextForCall` makes). A record
 * over the context's keys, so adding a field to the context without listing it here does not
 * compile.
 */
const CONTEXT_FIELDS: Readonly<Record<keyof ExtensionContext, true>> = {
  cwd: true,
  operations: true,
  workspace: true,
  mutations: true,
  artifacts: true,
  reads: true,
  ui: true,
  logger: true,
  session: true,
  state: true,
  signal: true,
  call: true,
  audit: true,
  diagnostics: true,
};

/** Every field an {@link ExtensionContext} may have, in the order `contextForCall` sets them. */
export const EXTENSION_CONTEXT_KEYS = Object.keys(CONTEXT_FIELDS) as readonly (keyof ExtensionContext)[];

/** Descriptions made per adapter object: every call of a session shares its one. */
const environments = new WeakMap<Operations, AuditEnvironment>();

/**
 * The environment as a record names it: the adapter's own description, else the kind read off
 * its `id` (`ssh://…` is `ssh`, `local` is `local`).
 */
function environmentOf(operations: Operations): AuditEnvironment {
  let environment = environments.get(operations);
  if (environment === undefined) {
    const described = operations.environment;
    environment = described
      ? { id: operations.id, ...described }
      : { id: operations.id, kind: /^([a-z0-9+.-]+):\/\//i.exec(operations.id)?.[1] ?? operations.id };
    environments.set(operations, environment);
  }
  return environment;
}

function notASessionMessage(session: unknown): string {
  const what =
    session === null || typeof session !== "object"
      ? String(session)
      : (session as { state?: unknown }).state === undefined
        ? "an object without `state`"
        : "an object whose `state` is not a SessionState";
  return `contextForCall: expected a ToolSession, got ${what}. Make the session with the tools' context factory (createToolContext, createLocalToolContext, ...), or give it \`state: new SessionState()\`.`;
}
