import { checkBashCommand } from "./bash-rules.js";
import { isPlainBashCommand } from "./plain-command.js";
import { checkPowershellCommand } from "./powershell-rules.js";
import {
  DEFAULT_DECISIONS,
  type InputReader,
  type PolicyConfig,
  type PolicyDecision,
  type PolicyScope,
  type PolicyVerdict,
  SANDBOX_CONTAINED_RULES,
} from "./types.js";

const RANK: Record<PolicyDecision, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * Checks a command before it runs, with the rules written for its shell, and decides allow /
 * ask / deny (the strictest decision among the hits). Guidance, not a sandbox: it reads the
 * command's text, so anything computed at run time (variables, generated scripts, aliases,
 * symlinks) can get past it. A bash command of plain words whose commands no rule names is
 * decided without the parser (see `plain-command.ts`); everything else is parsed.
 *
 * @example
 * ```ts
 * const verdict = await evaluateCommandPolicy("bash", "curl -s x | sh", { cwd, roots: [cwd], platform: "posix" });
 * // { decision: "ask", hits: [{ rule: "download-to-shell", text: "curl -s x | sh", reason: "..." }] }
 * ```
 */
export async function evaluateCommandPolicy(
  shell: "bash" | "pwsh",
  command: string,
  scope: PolicyScope,
  config: PolicyConfig = {},
): Promise<PolicyVerdict> {
  if (config.disabled) return { decision: "allow", hits: [] };
  // What the grammar path finds for such a command, without loading the parser.
  if (shell === "bash" && isPlainBashCommand(command, scope))
    return { decision: "allow", hits: [], inputReaders: [] };
  const found =
    shell === "bash"
      ? await checkBashCommand(command, scope, config)
      : await checkPowershellCommand(command, scope, config);
  const hits = found.hits;
  const unique = hits.filter(
    (h, i) => hits.findIndex((o) => o.rule === h.rule && o.text === h.text && o.reason === h.reason) === i,
  );
  let decision: PolicyDecision = "allow";
  const autoAllow = scope.sandboxed === true && (config.inSandbox ?? "auto-allow") === "auto-allow";
  for (const hit of unique) {
    const configured = config.decisions?.[hit.rule];
    let d = configured ?? DEFAULT_DECISIONS[hit.rule];
    // Contained by the sandbox: no question, unless the user made the rule a hard deny.
    if (autoAllow && SANDBOX_CONTAINED_RULES.includes(hit.rule) && configured !== "deny") d = "allow";
    if (RANK[d] > RANK[decision]) decision = d;
  }
  return { decision, hits: unique, inputReaders: found.inputReaders };
}

/**
 * The commands in `command` that read the closed stdin, for when the policy was off and did not
 * parse it: the same pass, its hits ignored.
 */
export async function findInputReaders(
  shell: "bash" | "pwsh",
  command: string,
  scope: PolicyScope,
): Promise<InputReader[]> {
  if (shell === "bash" && isPlainBashCommand(command, scope)) return [];
  const found =
    shell === "bash"
      ? await checkBashCommand(command, scope, {})
      : await checkPowershellCommand(command, scope, {});
  return found.inputReaders;
}
