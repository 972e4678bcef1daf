import { isOperationError } from "@tackle/operations";
import { EnvironmentError, UsageError } from "./usage-error.js";

/**
 * Turns a failure to open an environment into what the CLI reports. The SSH and Docker openers
 * already word their adapters' typed errors with this CLI's flags (as usage or environment
 * errors); any other adapter error still means the environment could not be used. Anything
 * else (a bug) passes through unchanged.
 */
export function environmentFailure(error: unknown): unknown {
  if (error instanceof UsageError || error instanceof EnvironmentError) return error;
  if (isOperationError(error)) return new EnvironmentError(error.message, { cause: error });
  return error;
}
