import { randomBytes } from "node:crypto";
import type { ShellKind } from "@tackle/operations";

/** Name of the environment marker every command carries (see escape hunting). */
export const RUN_ID_VARIABLE = "TACKLE_RUN_ID";

/** Options for the environment a command gets. */
export interface ShellEnvOptions {
  /**
   * Variables whose NAME matches are removed before the command runs. Default
   * {@link SECRET_NAME_PATTERN}; `false` keeps every variable.
   */
  filter?: RegExp | false;
  /** Names kept even when they match `filter` (default {@link KEPT_VARIABLES}). */
  keep?: readonly string[];
  /** Extra variables set for every command (after the defaults, so they can override them). */
  set?: Record<string, string>;
}

/** Secret-looking variable names. */
export const SECRET_NAME_PATTERN =
  /(SECRET|TOKEN|PASSW(OR)?D|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY|CREDENTIAL|AUTH|SESSION_?KEY)/i;

/** Kept although they match: sockets and paths, not secrets, and git over ssh needs them. */
export const KEPT_VARIABLES: readonly string[] = ["SSH_AUTH_SOCK", "GPG_AGENT_INFO"];

/**
 * Set for every command: no pager, no terminal prompts, no editor, no colour. An editor set to
 * `true` makes `git commit` without `-m` fail fast ("empty message") instead of hanging.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_ASKPASS: "",
  SSH_ASKPASS: "",
  PAGER: "cat",
  GIT_PAGER: "cat",
  MANPAGER: "cat",
  SYSTEMD_PAGER: "",
  GIT_EDITOR: "true",
  EDITOR: "true",
  VISUAL: "true",
  DEBIAN_FRONTEND: "noninteractive",
  PIP_NO_INPUT: "1",
  NO_COLOR: "1",
  TERM: "dumb",
};

/** A fresh random run id (128 bits, hex: safe to embed in any shell). */
export function newRunId(): string {
  return randomBytes(16).toString("hex");
}

/**
 * The environment variables passed in `ExecOptions.env`: defaults, the caller's extras, and
 * the run marker. Filtering happens inside the shell ({@link envFilterPrelude}) because only
 * the environment knows its own variables (over SSH the host's `process.env` is irrelevant).
 */
export function buildShellEnv(runId: string, options: ShellEnvOptions = {}): Record<string, string> {
  return { ...NON_INTERACTIVE_ENV, ...options.set, [RUN_ID_VARIABLE]: runId };
}

/**
 * Shell code that unsets secret-named variables, run before the command in the same shell.
 * Empty when filtering is off. The pattern is matched by the shell itself, case-insensitively.
 */
export function envFilterPrelude(shell: ShellKind, options: ShellEnvOptions = {}): string {
  const filter = options.filter === undefined ? SECRET_NAME_PATTERN : options.filter;
  if (filter === false) return "";
  const keep = options.keep ?? KEPT_VARIABLES;
  const source = filter.source;
  if (shell === "pwsh") {
    const keepList = keep.map((k) => `'${k.replaceAll("'", "''")}'`).join(",");
    return (
      `Get-ChildItem env: | Where-Object { $_.Name -match '${source.replaceAll("'", "''")}' -and @(${keepList}) -notcontains $_.Name } | ` +
      'ForEach-Object { Remove-Item -LiteralPath "env:$($_.Name)" }\n'
    );
  }
  const quoted = `'${source.replaceAll("'", "'\\''")}'`;
  const keepCase = keep.length > 0 ? `${keep.join("|")}) ;; ` : "";
  if (shell === "bash") {
    // Builtins only (compgen, [[ =~ ]]): no process is started before the command.
    return (
      `__re=${quoted}; shopt -s nocasematch; for __t in $(compgen -e); do ` +
      `if [[ $__t =~ $__re ]]; then case "$__t" in ${keepCase}*) unset "$__t" ;; esac; fi; done; ` +
      "shopt -u nocasematch; unset __t __re\n"
    );
  }
  // POSIX sh: list names with `env`, test them with grep -E -i, unset each.
  return (
    `for __t in $(env | sed -n 's/^\\([A-Za-z_][A-Za-z0-9_]*\\)=.*/\\1/p' | grep -E -i ${quoted}); do ` +
    `case "$__t" in ${keepCase}*) unset "$__t" ;; esac; done; unset __t\n`
  );
}
