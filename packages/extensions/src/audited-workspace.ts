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
  return new ResolveOverride(policy, resolve);
}

/**
 * The object {@link withResolve} makes, once per audited call. A class, not an object literal
 * with getters: a literal's getters are new closures each time, and an object whose accessors
 * differ gets a hidden class of its own, made in the old generation, which a call a millisecond
 * long turned into a full collection every few hundred calls.
 */
class ResolveOverride implements WorkspacePolicy {
  constructor(
    private readonly policy: WorkspacePolicy,
    readonly resolve: WorkspacePolicy["resolve"],
  ) {}

  get roots(): readonly string[] {
    return this.policy.roots;
  }

  get outside(): WorkspacePolicy["outside"] {
    return this.policy.outside;
  }

  addRoot(root: string): void {
    this.policy.addRoot(root);
  }

  setRoots(roots: readonly string[]): void {
    this.policy.setRoots(roots);
  }
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
