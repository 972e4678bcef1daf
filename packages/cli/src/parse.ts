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
