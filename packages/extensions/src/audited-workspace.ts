import { type AuditRecorder, isToolError } from "@tackle/agent-core";
import type { PathAccess, ResolvedPath, WorkspacePolicy } from "./context.js";

/**
 * `policy` with every path decision recorded in `audit`: the path as given, the real path, the
 * root it lies in, or the refusal with its code. Roots and changes to them are the policy's own.
 */
export function auditedWorkspace(policy: WorkspacePolicy, audit: AuditRecorder): WorkspacePolicy {
  return withResolve(policy, async (input, access, options) => {
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
  });
}

/**
 * `policy` with its `resolve` replaced (the new one usually calls the old one and looks at the
 * answer); roots, the outside policy and changes to the roots stay the policy's own.
 */
export function withResolve(policy: WorkspacePolicy, resolve: WorkspacePolicy["resolve"]): WorkspacePolicy {
  return {
    get roots() {
      return policy.roots;
    },
    get outside() {
      return policy.outside;
    },
    addRoot: (root) => policy.addRoot(root),
    setRoots: (roots) => policy.setRoots(roots),
    resolve,
  };
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
