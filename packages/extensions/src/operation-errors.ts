/**
 * The one mapping from an environment's `OperationError` to a model-facing `ToolError`: the same
 * code family, and a next step that fits the failure. `wrapToolDefinition` applies it to
 * whatever a tool lets escape (a failure while resolving its path included), and tools call it
 * where they know a better name for the path than the environment does.
 */
import { posix, win32 } from "node:path";
import { isToolError, shortenInput, ToolError } from "@tackle/agent-core";
import { isOperationError, type OperationError } from "@tackle/operations";

/** Characters of an environment's own message quoted in a tool error (it may repeat the input). */
const QUOTED_MESSAGE_CHARS = 400;

/**
 * Maps `error` to a {@link ToolError} about `subject` (the path as the model should see it;
 * without one, the error's own path or "the environment"). A `ToolError` passes through; an
 * `OperationError` keeps its code family; anything else is `execution_failed`.
 *
 * @example
 * ```ts
 * try { await ctx.operations.readFile(real) } catch (error) { throw toToolError(error, "src/a.ts") }
 * ```
 */
export function toToolError(error: unknown, subject?: string): ToolError {
  if (isToolError(error)) return error;
  const shown = subject === undefined ? undefined : shortenInput(subject);
  if (isOperationError(error)) {
    return fromOperationError(
      error,
      shown ?? (error.path === undefined ? undefined : shortenInput(error.path)),
    );
  }
  const message = quotedMessage(error instanceof Error ? error.message : String(error));
  return new ToolError("execution_failed", shown ? `${shown}: ${message}` : message, { cause: error });
}

/**
 * Like {@link toToolError} for an error escaping a tool's `execute`: only `OperationError`s are
 * mapped (their path shown relative to `cwd` when inside it); anything else is returned as it
 * is, for `invokeTool` to report.
 */
export function mapEscapedError(
  error: unknown,
  context: { cwd: string; operations: { platform: "posix" | "win32" } },
): unknown {
  if (isToolError(error) || !isOperationError(error)) return error;
  const path = error.path;
  return fromOperationError(error, path === undefined ? undefined : shortenInput(relativeTo(context, path)));
}

function relativeTo(
  context: { cwd: string; operations: { platform: "posix" | "win32" } },
  path: string,
): string {
  const syntax = context.operations.platform === "win32" ? win32 : posix;
  const relative = syntax.relative(context.cwd, path);
  if (relative === "") return ".";
  if (relative === ".." || relative.startsWith(`..${syntax.sep}`) || syntax.isAbsolute(relative)) return path;
  return relative;
}

function fromOperationError(error: OperationError, subject: string | undefined): ToolError {
  const cause = { cause: error };
  const on = subject === undefined ? "" : ` while working on ${subject}`;
  const what = subject ?? "The path";
  switch (error.code) {
    case "not_found":
      return new ToolError(
        "not_found",
        `Not found: ${subject ?? "a path"}. Use ls or find to see what exists.`,
        cause,
      );
    case "permission_denied":
      return new ToolError(
        "permission_denied",
        `Permission denied: ${subject ?? "a path"}. The environment's user cannot access it; use another path or ask the user to change its permissions.`,
        cause,
      );
    case "is_directory":
      return new ToolError("is_directory", `${what} is a directory. Use ls to list it.`, cause);
    case "not_directory":
      return new ToolError(
        "not_directory",
        `A part of ${subject ?? "the path"} is a file, not a directory. Check the path with ls.`,
        cause,
      );
    case "aborted":
      return new ToolError("aborted", `Aborted${on}. Retry if it is still needed.`, cause);
    case "too_large":
      return new ToolError(
        "too_large",
        `${what} is too large for this operation. Use read with offset/limit, or bash, for large files.`,
        cause,
      );
    case "connection_lost":
      // The environment, not the call, failed: changing the arguments cannot help.
      return new ToolError(
        "connection_lost",
        `The environment is unreachable: the connection to it was lost${on}. Nothing can be done there until it is back; retry once, and if it fails again, tell the user.`,
        cause,
      );
    case "timeout":
      return new ToolError(
        "timeout",
        `The environment did not answer in time${on}. Retry once; if it times out again, tell the user the environment is slow or unreachable.`,
        cause,
      );
    case "special_file":
      return specialFileError(subject ?? "The path", error);
    case "outside_root":
      return new ToolError(
        "outside_workspace",
        `${what} led outside the workspace while it was being written (a directory was replaced by a link or moved). Nothing was written; check the path with ls and try again.`,
        cause,
      );
    case "changed":
      return new ToolError(
        "stale_read",
        `${what} was changed by another writer while it was being written. Nothing was written; read it again, then retry.`,
        cause,
      );
    case "not_supported":
      return new ToolError(
        "not_supported",
        `Not supported by this environment${subject === undefined ? "" : ` (${subject})`}: ${sentence(quotedMessage(error.message))} Do it another way (another tool or approach).`,
        cause,
      );
    case "invalid_argument":
      return new ToolError(
        "invalid_arguments",
        `${what} is not valid in this environment: ${sentence(quotedMessage(error.message))} Send a valid path.`,
        cause,
      );
    default:
      return new ToolError(
        "execution_failed",
        `${subject === undefined ? "" : `${subject}: `}${sentence(quotedMessage(error.message))} Check the path and try again.`,
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

/** An environment's message, which may quote a huge input, cut to a readable size. */
function quotedMessage(message: string): string {
  return shortenInput(message, QUOTED_MESSAGE_CHARS);
}

/** `text` ending in a period, so a next step can follow it. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
