/**
 * The one place `@tackle/tools` reaches `@tackle/shell-policy`, an optional peer dependency: it
 * is imported when a shell tool's default policy first checks a command, so a program that uses
 * no shell tool, or turns the policy off for its own, neither installs nor loads it.
 */
import type { InputReader, PolicyConfig, PolicyScope, PolicyVerdict } from "./policy-contract.js";

/** What the tools use of the policy package. */
interface ShellPolicy {
  evaluateCommandPolicy(
    shell: "bash" | "pwsh",
    command: string,
    scope: PolicyScope,
    config?: PolicyConfig,
  ): Promise<PolicyVerdict>;
  findInputReaders(shell: "bash" | "pwsh", command: string, scope: PolicyScope): Promise<InputReader[]>;
}

/** Thrown when the policy package is not installed; its message names the two ways on. */
export class ShellPolicyMissingError extends Error {
  readonly code = "shell_policy_missing";
}

let loaded: Promise<ShellPolicy> | undefined;

function loadShellPolicy(): Promise<ShellPolicy> {
  loaded ??= import("@tackle/shell-policy").then(
    (module): ShellPolicy => module,
    (error: unknown) => {
      loaded = undefined;
      const missing =
        (error as { code?: string }).code === "ERR_MODULE_NOT_FOUND" &&
        String((error as Error).message).includes("@tackle/shell-policy");
      if (!missing) throw error;
      throw new ShellPolicyMissingError(
        "@tackle/shell-policy is not installed: install it for the shell tools' default command policy, or set the tool's policy to { disabled: true } and check commands another way",
        { cause: error },
      );
    },
  );
  return loaded;
}

/**
 * Checks a command before it runs with `@tackle/shell-policy` (loaded on the first call) and
 * decides allow / ask / deny. Rejects with {@link ShellPolicyMissingError} when that package is
 * not installed. See `evaluateCommandPolicy` there for the rules and their limits.
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
  return (await loadShellPolicy()).evaluateCommandPolicy(shell, command, scope, config);
}

/**
 * The commands in `command` that read the closed stdin, for a failed or silent run the policy did
 * not parse (it was off). A hint only: empty when `@tackle/shell-policy` is not installed.
 */
export async function findInputReaders(
  shell: "bash" | "pwsh",
  command: string,
  scope: PolicyScope,
): Promise<InputReader[]> {
  let policy: ShellPolicy;
  try {
    policy = await loadShellPolicy();
  } catch (error) {
    if (error instanceof ShellPolicyMissingError) return [];
    throw error;
  }
  return policy.findInputReaders(shell, command, scope);
}
