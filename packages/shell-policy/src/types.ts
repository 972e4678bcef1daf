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

/**
 * A command that reads an answer from stdin, which the tools close: it gets end-of-file at once
 * (`read` fails, a menu ends) or waits, usually without printing anything.
 */
export interface InputReader {
  /** `read`, `select`, the program's name, or PowerShell's (`Read-Host`, `$Host.UI.ReadLine`). */
  command: string;
  /** Its source text. */
  text: string;
  /** How to run it without a question, said to the model ("add -y", "give it the answer on stdin, e.g. ..."). */
  answer: string;
}

/** Decision for a whole command. */
export interface PolicyVerdict {
  decision: PolicyDecision;
  hits: PolicyHit[];
  /**
   * Commands that read the closed stdin or ask at a terminal, found in the same parse (bash's
   * `read`, PowerShell's `Read-Host`, ...). Absent when the policy is off.
   */
  inputReaders?: InputReader[];
}

/** Configuration of the policy (per tool; the same shape for bash and PowerShell). */
export interface PolicyConfig {
  /** Decision per rule (defaults: {@link DEFAULT_DECISIONS}). */
  decisions?: Partial<Record<PolicyRuleId, PolicyDecision>>;
  /**
   * Paths outside the workspace that redirects may overwrite without a hit (prefixes,
   * absolute). Default: `/dev/null`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/`, `/tmp/`, `/var/tmp/`.
   */
  writablePaths?: readonly string[];
  /** Turn the whole policy off (every command allowed). */
  disabled?: boolean;
  /**
   * What a sandboxed command's hits need (the tool's `sandbox` option is set):
   * `"auto-allow"` (default) allows, without asking, the rules whose harm the sandbox contains
   * ({@link SANDBOX_CONTAINED_RULES}: a write outside the workspace fails there, a download
   * reaches only allowed hosts, sudo gains nothing, a `cd` out can only read), unless
   * `decisions` sets one of them to `deny`. `recursive-delete` (the workspace is writable
   * inside) and `interactive-program` (it would still hang) keep their decisions.
   * `"as-configured"`: the sandbox changes nothing here.
   */
  inSandbox?: "auto-allow" | "as-configured";
}

/** Rules whose effect the sandbox contains; see {@link PolicyConfig.inSandbox}. */
export const SANDBOX_CONTAINED_RULES: readonly PolicyRuleId[] = [
  "overwrite-outside-workspace",
  "download-to-shell",
  "privilege-escalation",
  "cwd-escape",
];

/** Where the command will run, for resolving paths the rules see. */
export interface PolicyScope {
  cwd: string;
  roots: readonly string[];
  homeDir?: string;
  platform: "posix" | "win32";
  /** The command will run in an OS sandbox (see {@link PolicyConfig.inSandbox}). */
  sandboxed?: boolean;
}

/**
 * Defaults: commands that would hang (interactive programs) are denied outright, since they
 * cannot work with a closed stdin; everything else needs a person's yes (denied headless).
 */
export const DEFAULT_DECISIONS: Readonly<Record<PolicyRuleId, PolicyDecision>> = {
  "recursive-delete": "ask",
  "overwrite-outside-workspace": "ask",
  "download-to-shell": "ask",
  "privilege-escalation": "ask",
  "interactive-program": "deny",
  "cwd-escape": "ask",
};

/** Default {@link PolicyConfig.writablePaths}. */
export const DEFAULT_WRITABLE_PATHS: readonly string[] = [
  "/dev/null",
  "/dev/stdout",
  "/dev/stderr",
  "/dev/tty",
  "/dev/fd/",
  "/tmp/",
  "/var/tmp/",
];
