// The command policy as a gate of the shell tools: evaluates a command, records the decision in
// the call's audit, asks the user on `ask`, and refuses with a message that names the rules hit.
import type { ApprovalCheck, AuditRecorder } from "@tackle/agent-core";
import { isToolError, ToolError } from "@tackle/agent-core";
import { approvedCallId, type ExtensionContext, isHeadlessUI } from "@tackle/extensions";
import { recordPolicyDecision } from "../audit/shell-audit.js";
import type { ToolShell } from "./pipeline.js";
import type { InputReader, PolicyConfig, PolicyHit, PolicyScope, PolicyVerdict } from "./policy-contract.js";
import { evaluateCommandPolicy } from "./policy-loader.js";
import { answers } from "./prompt.js";

/** The refusal text: the rules hit, what matched, and how to rewrite the command. */
export function policyMessage(hits: PolicyHit[], why: string, readers: readonly InputReader[] = []): string {
  const list = hits.map((h) => `- ${h.rule}: ${h.reason} (matched: \`${h.text}\`)`).join("\n");
  // A refused prompt (Read-Host, Get-Credential) is best rewritten the way each reader says.
  const prompts = hits.some((h) => h.rule === "interactive-program") ? readers : [];
  const rewrite = prompts.length > 0 ? `\nNobody can answer a prompt here: ${answers(prompts)}` : "";
  return `Command ${why} by the command policy:\n${list}${rewrite}\nRewrite the command to avoid these (e.g. a narrower path inside the workspace, no sudo, non-interactive flags), or ask the user to run it.`;
}

/** Where a command runs, as the policy resolves paths. */
export function policyScope(ctx: ExtensionContext, cwd: string, sandboxed = false): PolicyScope {
  return {
    cwd,
    roots: ctx.workspace.roots,
    platform: ctx.operations.platform,
    ...(ctx.operations.homeDir ? { homeDir: ctx.operations.homeDir } : {}),
    ...(sandboxed ? { sandboxed } : {}),
  };
}

/** Evaluates the policy for `command` in `cwd`; throws `policy_denied` unless it may run. */
export async function checkPolicy(
  ctx: ExtensionContext,
  shell: ToolShell,
  command: string,
  cwd: string,
  config: PolicyConfig | undefined,
  signal: AbortSignal | undefined,
  audit: AuditRecorder,
  sandboxed = false,
): Promise<PolicyVerdict> {
  let verdict: PolicyVerdict;
  try {
    verdict = await evaluateCommandPolicy(shell, command, policyScope(ctx, cwd, sandboxed), config);
  } catch (error) {
    // Fail closed: a policy that cannot run must not wave every command through.
    recordPolicyDecision(audit, { decision: "deny", hits: [] });
    throw new ToolError(
      "policy_denied",
      `The command policy could not check this command (${(error as Error).message}); nothing was run.`,
      { cause: error },
    );
  }
  if (verdict.decision !== "ask") recordPolicyDecision(audit, verdict);
  if (verdict.decision === "deny")
    throw new ToolError("policy_denied", policyMessage(verdict.hits, "refused", verdict.inputReaders), {
      details: { hits: verdict.hits },
    });
  if (verdict.decision === "ask") {
    // A person who approved this call before it ran (the host asked through checkApproval) is
    // not asked again.
    const ahead = approvedCallId() !== undefined;
    const yes =
      ahead ||
      (await ctx.ui.confirm(`Run this ${shell} command?`, `${command}\n\n${askReason(verdict)}`, {
        ...(signal ? { signal } : {}),
      }));
    recordPolicyDecision(audit, verdict, { approved: yes, ui: ahead || !isHeadlessUI(ctx.ui) });
    if (!yes) {
      throw new ToolError(
        "policy_denied",
        policyMessage(verdict.hits, "needs approval and was not approved"),
        {
          details: { hits: verdict.hits },
        },
      );
    }
  }
  return verdict;
}

/** What a person is asked about: each rule the command hit and why. */
function askReason(verdict: PolicyVerdict): string {
  return verdict.hits.map((h) => `${h.rule}: ${h.reason}`).join("\n");
}

/**
 * The policy's verdict on `command` before it runs, for `checkApproval`: `ask` with the rules hit,
 * `deny` with the refusal the model would read, `allow` otherwise. A cwd the workspace refuses is
 * a `deny` with its message; a policy that cannot run leaves it to a person. Never throws.
 */
export async function policyApproval(
  ctx: ExtensionContext,
  shell: ToolShell,
  command: string,
  cwd: string | undefined,
  config: PolicyConfig | undefined,
  signal: AbortSignal | undefined,
): Promise<ApprovalCheck> {
  try {
    const resolved = await ctx.workspace.resolve(cwd ?? ctx.cwd, "write", signal ? { signal } : {});
    const verdict = await evaluateCommandPolicy(shell, command, policyScope(ctx, resolved.real), config);
    if (verdict.decision === "allow") return { verdict: "allow" };
    if (verdict.decision === "ask") return { verdict: "ask", reason: askReason(verdict) };
    return { verdict: "deny", reason: policyMessage(verdict.hits, "refused", verdict.inputReaders) };
  } catch (error) {
    if (isToolError(error)) return { verdict: "deny", reason: error.message };
    const reason = error instanceof Error ? error.message : String(error);
    return { verdict: "ask", reason: `The command policy could not check this command (${reason}).` };
  }
}
