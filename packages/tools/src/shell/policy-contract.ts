/**
 * What the bash and powershell tools exchange with their command policy, `@tackle/shell-policy`
 * (an optional peer dependency): the same shapes that package declares, written here so the
 * tools' own types stand without it installed (a TypeScript user without a shell checks them
 * with no missing module). `test/shell-policy-contract.test.ts` holds the two in lockstep. The
 * rules, their defaults and their limits are documented in that package.
 */

/** Rules of the command policy; each hit names one. */
export type PolicyRuleId =
  | "recursive-delete"
  | "overwrite-outside-workspace"
  | "download-to-shell"
  | "privilege-escalation"
  | "interactive-program"
  | "cwd-escape";

/** What to do about a hit. The strictest decision among all hits wins. */
export type PolicyDecision = "allow" | "ask" | "deny";

/** One finding: which rule, the exact text it matched, and why it matters. */
export interface PolicyHit {
  rule: PolicyRuleId;
  /** The source text of the node that matched (a command, a redirect, a pipeline). */
  text: string;
  reason: string;
}

/** A command that reads an answer from the closed stdin (`read`, `Read-Host`, `apt-get install`). */
export interface InputReader {
  /** `read`, `select`, the program's name, or PowerShell's (`Read-Host`, `$Host.UI.ReadLine`). */
  command: string;
  /** Its source text. */
  text: string;
  /** How to run it without a question, said to the model ("add -y", ...). */
  answer: string;
}

/** Decision for a whole command. */
export interface PolicyVerdict {
  decision: PolicyDecision;
  hits: PolicyHit[];
  /** Commands that read the closed stdin, found in the same parse. Absent when the policy is off. */
  inputReaders?: InputReader[];
}

/** Configuration of the policy (per tool; the same shape for bash and PowerShell). */
export interface PolicyConfig {
  /** Decision per rule (defaults: `DEFAULT_DECISIONS` of `@tackle/shell-policy`). */
  decisions?: Partial<Record<PolicyRuleId, PolicyDecision>>;
  /** Paths outside the workspace that redirects may overwrite without a hit (prefixes, absolute). */
  writablePaths?: readonly string[];
  /** Turn the whole policy off (every command allowed; `@tackle/shell-policy` is not loaded). */
  disabled?: boolean;
  /** What a sandboxed command's hits need: `"auto-allow"` (default) or `"as-configured"`. */
  inSandbox?: "auto-allow" | "as-configured";
}

/** Where the command will run, for resolving paths the rules see. */
export interface PolicyScope {
  cwd: string;
  roots: readonly string[];
  homeDir?: string;
  platform: "posix" | "win32";
  /** The command will run in an OS sandbox (see {@link PolicyConfig.inSandbox}). */
  sandboxed?: boolean;
}
