/**
 * Turns an `OperationError` from the environment into a model-facing `ToolError` with the same
 * code family and a next step. Tools call this in one place instead of wording errors each time.
 */
import { isToolError, ToolError } from "@tackle/agent-core";
import { isOperationError } from "@tackle/operations";

/**
 * Maps `error` (anything a tool caught) to a {@link ToolError} about `display` (the path as the
 * model should see it). A `ToolError` passes through unchanged.
 */
export function toToolError(error: unknown, display: string): ToolError {
  if (isToolError(error)) return error;
  if (!isOperationError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return new ToolError("execution_failed", `${display}: ${message}`, { cause: error });
  }
  const cause = { cause: error };
  switch (error.code) {
    case "not_found":
      return new ToolError("not_found", `Not found: ${display}. Use ls or find to see what exists.`, cause);
    case "permission_denied":
      return new ToolError("permission_denied", `Permission denied: ${display}.`, cause);
    case "is_directory":
      return new ToolError("is_directory", `${display} is a directory. Use ls to list it.`, cause);
    case "not_directory":
      return new ToolError("not_directory", `A part of ${display} is a file, not a directory.`, cause);
    case "aborted":
      return new ToolError("aborted", `Aborted: ${display}.`, cause);
    case "too_large":
      return new ToolError("too_large", `${display} is too large for this operation.`, cause);
    case "connection_lost":
      return new ToolError(
        "connection_lost",
        `Connection to the environment was lost while working on ${display}. Try again.`,
        cause,
      );
    case "timeout":
      return new ToolError("timeout", `Timed out working on ${display}. Try again.`, cause);
    case "not_supported":
      return new ToolError("not_supported", `Not supported by this environment: ${error.message}`, cause);
    default:
      return new ToolError("execution_failed", `${display}: ${error.message}`, cause);
  }
}
