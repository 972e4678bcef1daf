import type { EnvironmentOptions } from "./environment.js";
import { UsageError } from "./usage-error.js";

/** Options every command that opens an environment accepts. */
export const ENV_OPTIONS = {
  cwd: { type: "string" },
  env: { type: "string" },
  identity: { type: "string" },
  "known-hosts": { type: "string" },
} as const;

/** Runs a `parseArgs` call and turns its errors into a {@link UsageError} that points at the help. */
export function parseCommandArgs<T>(parse: () => T, command: string): T {
  try {
    return parse();
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/, "");
    throw new UsageError(`${message}. See tackle ${command} --help.`);
  }
}

/** The environment options of a parsed command line (`--cwd`, `--identity`, `--known-hosts`). */
export function environmentOptionsOf(values: {
  cwd?: string | undefined;
  identity?: string | undefined;
  "known-hosts"?: string | undefined;
}): EnvironmentOptions {
  return {
    ...(values.cwd !== undefined ? { cwd: values.cwd } : {}),
    ...(values.identity !== undefined ? { identity: values.identity } : {}),
    ...(values["known-hosts"] !== undefined ? { knownHosts: values["known-hosts"] } : {}),
  };
}
