import { isOperationError } from "@tackle/operations";
import type { EnvSpec } from "./env-url.js";
import type { EnvironmentOptions } from "./environment.js";
import { EnvironmentError, UsageError } from "./usage-error.js";

/**
 * Turns a failure to open an environment into what the CLI reports: usage errors pass through;
 * an adapter's typed error becomes an {@link EnvironmentError} whose message names the next step
 * in terms of this CLI's flags. Anything else passes through unchanged.
 */
export function environmentFailure(error: unknown, _spec: EnvSpec, _options: EnvironmentOptions): unknown {
  if (error instanceof UsageError || error instanceof EnvironmentError) return error;
  if (isOperationError(error)) return new EnvironmentError(error.message, { cause: error });
  return error;
}
