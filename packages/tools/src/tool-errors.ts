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
      return new ToolError(
        "permission_denied",
        `Permission denied: ${display}. The environment's user cannot access it; use another path or ask the user to change its permissions.`,
        cause,
      );
    case "is_directory":
      return new ToolError("is_directory", `${display} is a directory. Use ls to list it.`, cause);
    case "not_directory":
      return new ToolError(
        "not_directory",
        `A part of ${display} is a file, not a directory. Check the path with ls.`,
        cause,
      );
    case "aborted":
      return new ToolError(
        "aborted",
        `Aborted while working on ${display}. Retry if it is still needed.`,
        cause,
      );
    case "too_large":
      return new ToolError(
        "too_large",
        `${display} is too large for this operation. Use read with offset/limit, or bash, for large files.`,
        cause,
      );
    case "connection_lost":
      return new ToolError(
        "connection_lost",
        `Connection to the environment was lost while working on ${display}. Try again.`,
        cause,
      );
    case "timeout":
      return new ToolError("timeout", `Timed out working on ${display}. Try again.`, cause);
    case "special_file":
      return specialFileError(display, error);
    case "outside_root":
      return new ToolError(
        "outside_workspace",
        `${display} led outside the workspace while it was being written (a directory was replaced by a link or moved). Nothing was written; check the path with ls and try again.`,
        cause,
      );
    case "not_supported":
      return new ToolError(
        "not_supported",
        `Not supported by this environment (${display}): ${sentence(error.message)} Do it another way (another tool or approach).`,
        cause,
      );
    default:
      return new ToolError(
        "execution_failed",
        `${display}: ${sentence(error.message)} Check the path and try again.`,
        cause,
      );
  }
}

/**
 * The refusal for a FIFO, socket or device: no tool opens one, since reading or writing it can
 * block forever (a FIFO without a writer) or act on hardware.
 */
export function specialFileError(display: string, cause?: unknown): ToolError {
  return new ToolError(
    "special_file",
    `${display} is a FIFO, socket or device, not a regular file; tools never open those. Use ls to see what it is.`,
    cause === undefined ? {} : { cause },
  );
}

/** `text` ending in a period, so a next step can follow it. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
