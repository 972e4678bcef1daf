import {
  EnvironmentError,
  EXIT_ENVIRONMENT,
  EXIT_TOOL_ERROR,
  EXIT_USAGE,
  UsageError,
} from "./usage-error.js";

/** A failed `tackle tool` call as JSON: a tool outcome's shape, with the CLI's own codes. */
export interface FailureOutcome {
  content: { type: "text"; text: string }[];
  isError: true;
  /** `usage`, `tool_not_found`, `invalid_json`, `environment_unavailable`, or an error's own code. */
  errorCode: string;
}

/**
 * True when `--json` is among the flags (before a `--` that ends them): asked for before the
 * command line is parsed, so a command line that does not parse is still answered in JSON.
 */
export function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
}

/**
 * What `tackle tool --json` prints when the call never produced a tool outcome: a usage error
 * (`errorCode` `usage`, `tool_not_found`, `invalid_json`), an environment that could not be
 * reached (`environment_unavailable`) or an unexpected failure (the error's own code, else
 * `internal_error`). The same shape as a tool's outcome, so a script reads one kind of object.
 */
export function failureOutcome(error: unknown): { outcome: FailureOutcome; exitCode: number } {
  const message = error instanceof Error ? error.message : String(error);
  const outcomeOf = (errorCode: string): FailureOutcome => ({
    content: [{ type: "text", text: message }],
    isError: true,
    errorCode,
  });
  if (error instanceof UsageError) return { outcome: outcomeOf(error.code), exitCode: EXIT_USAGE };
  if (error instanceof EnvironmentError)
    return { outcome: outcomeOf("environment_unavailable"), exitCode: EXIT_ENVIRONMENT };
  const code = (error as { code?: unknown } | undefined)?.code;
  return {
    outcome: outcomeOf(typeof code === "string" ? code : "internal_error"),
    exitCode: EXIT_TOOL_ERROR,
  };
}
