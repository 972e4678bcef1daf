import {
  type AuditEnvironment,
  type AuditRecorder,
  createAuditRecorder,
  isToolError,
  NO_AUDIT,
} from "@tackle/agent-core";
import type { Operations } from "@tackle/operations";
import type { ExtensionContext, PathAccess, ResolvedPath, WorkspacePolicy } from "./context.js";
import type { ToolAnnotations } from "./tool-definition.js";

/**
 * The audit recorder of one call, from the context's sink ({@link NO_AUDIT} when the context has
 * none). Tools and handlers use it to add their evidence to the call's record.
 */
export function callAudit(
  ctx: Pick<ExtensionContext, "audit" | "session">,
  toolCallId: string,
): AuditRecorder {
  const sink = ctx.audit;
  if (sink === undefined) return NO_AUDIT;
  return createAuditRecorder(sink, { callId: toolCallId, sessionId: ctx.session.id });
}

/**
 * The context a tool gets for one call when the session is audited: its workspace policy records
 * every path decision (the path as given, the real path, the root or the refusal) in the call's
 * record, and a tool annotated read-only records that it changes nothing. Without an audit sink
 * the context is returned as is.
 */
export function withCallAudit(
  context: ExtensionContext,
  toolCallId: string,
  annotations?: ToolAnnotations,
): ExtensionContext {
  if (context.audit === undefined) return context;
  const audit = callAudit(context, toolCallId);
  audit.record({
    kind: "decision",
    source: "context",
    gate: "environment",
    verdict: "note",
    environment: environmentOf(context.operations),
  });
  if (annotations?.readOnlyHint === true) {
    // Declared by the tool: a read-only tool's record says so instead of leaving the piece empty.
    audit.record({ kind: "side-effect", source: "tool", method: "none", files: [], note: "read-only tool" });
  }
  // Made on the first read of `workspace`: a call that never resolves a path pays nothing for it.
  let workspace: WorkspacePolicy | undefined;
  return new Proxy(context, {
    get(target, property, receiver) {
      if (property !== "workspace") return Reflect.get(target, property, receiver);
      workspace ??= auditedWorkspace(target.workspace, audit);
      return workspace;
    },
  });
}

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

function auditedWorkspace(policy: WorkspacePolicy, audit: AuditRecorder): WorkspacePolicy {
  const resolve: WorkspacePolicy["resolve"] = async (input, access, options) => {
    try {
      const resolved = await policy.resolve(input, access, options);
      recordAllowed(audit, policy, input, access, resolved);
      return resolved;
    } catch (error) {
      const details = isToolError(error) ? (error.details as { real?: string } | undefined) : undefined;
      audit.record({
        kind: "decision",
        source: "workspace",
        gate: "workspace",
        verdict: "deny",
        code: isToolError(error) ? error.code : "execution_failed",
        rules: [`outside=${policy.outside}`],
        reason: error instanceof Error ? error.message : String(error),
        path: { input, access, ...(details?.real ? { real: details.real } : {}), inside: false },
      });
      throw error;
    }
  };
  return new Proxy(policy, {
    get: (target, property, receiver) =>
      property === "resolve" ? resolve : Reflect.get(target, property, receiver),
  });
}

function recordAllowed(
  audit: AuditRecorder,
  policy: WorkspacePolicy,
  input: string,
  access: PathAccess,
  resolved: ResolvedPath,
): void {
  audit.record({
    kind: "decision",
    source: "workspace",
    gate: "workspace",
    verdict: "allow",
    rules: [resolved.insideWorkspace ? "inside-root" : `outside=${policy.outside}`],
    path: {
      input,
      access,
      real: resolved.real,
      ...(resolved.root !== undefined ? { root: resolved.root } : {}),
      inside: resolved.insideWorkspace,
    },
  });
}
