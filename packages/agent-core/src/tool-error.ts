/**
 * Every code a tool error carries across layers. Hosts branch on these, never on message text;
 * the list is closed, so a new code is added here (with what it means) before anything throws it.
 */
export const TOOL_ERROR_CODES = [
  /** The arguments do not fit the schema or make no sense (a model's, or a hook's replacement). */
  "invalid_arguments",
  /** No tool of that name in the run. */
  "tool_not_found",
  /** The host (a hook or policy) refused the call, or turned its result into an error. */
  "blocked",
  /** Stopped by an abort signal. */
  "aborted",
  /** A time limit ran out (a command's timeout, an environment operation's). */
  "timeout",
  /** The file or directory does not exist (also: it leads into a loop of links). */
  "not_found",
  /** The path lies outside the workspace roots and the policy does not allow that access. */
  "outside_workspace",
  /** The environment's user may not access the path. */
  "permission_denied",
  /** A file was expected and a directory found. */
  "is_directory",
  /** A directory was expected and a file found. */
  "not_directory",
  /** A text tool was given a binary file. */
  "binary_file",
  /** A FIFO, socket or device: no tool opens one (it could block forever or act on hardware). */
  "special_file",
  /** The file or output is too large for the operation. */
  "too_large",
  /** The file changed since the model last read it. */
  "stale_read",
  /** edit: oldText was not found. */
  "no_match",
  /** edit: oldText matches more than one place. */
  "ambiguous_match",
  /** edit: two edits of one call overlap. */
  "overlapping_edits",
  /** The file's encoding cannot hold or reproduce the text. */
  "encoding",
  /** Text holds a redaction placeholder ([REDACTED:kind]) that would overwrite a real secret. */
  "redacted_text",
  /** The environment cannot do this (no PowerShell, no readlink...). */
  "not_supported",
  /** The environment became unreachable (an SSH connection dropped, the Docker engine went away). */
  "connection_lost",
  /** A command waited for input that cannot come (stdin is closed). */
  "interactive_prompt",
  /** The command policy refused the command, or it needed approval that was not given. */
  "policy_denied",
  /** A beforeToolCall/afterToolCall hook threw. */
  "hook_failed",
  /** The tool ran and failed (a non-zero exit code, an unexpected failure). */
  "execution_failed",
  /** The model's reply was cut by the token limit, so its calls were not run. */
  "length_stop",
  /** The call used a context that was disposed or replaced (an unloaded extension's). */
  "stale_context",
  /** The tool's parameters are not a schema that can be checked (a tool author's bug). */
  "invalid_schema",
] as const;

/** One of {@link TOOL_ERROR_CODES}: what hosts branch on (never the message text). */
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/** True when `code` is one of {@link TOOL_ERROR_CODES} (for codes that arrive as plain strings). */
export function isToolErrorCode(code: unknown): code is ToolErrorCode {
  return typeof code === "string" && (TOOL_ERROR_CODES as readonly string[]).includes(code);
}

/** Options for {@link ToolError}. */
export interface ToolErrorOptions<TDetails = unknown> {
  /** Structured data for the result's `details`. */
  details?: TDetails;
  cause?: unknown;
}

/**
 * A failure a tool reports to the model. `message` is model-facing: short, exact, and names the
 * next step ("File not found: src/a.ts. Did you mean src/app.ts?").
 *
 * @example
 * ```ts
 * throw new ToolError("not_found", `File not found: ${path}. Use ls to see what exists.`);
 * ```
 */
export class ToolError<TDetails = unknown> extends Error {
  override readonly name = "ToolError";
  readonly code: ToolErrorCode;
  readonly details: TDetails | undefined;

  constructor(code: ToolErrorCode, message: string, options: ToolErrorOptions<TDetails> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }
}

/** True when `error` is a {@link ToolError} (also across package copies), optionally with a code. */
export function isToolError(error: unknown, code?: ToolErrorCode): error is ToolError {
  const looksLike =
    error instanceof ToolError ||
    (typeof error === "object" &&
      error !== null &&
      (error as { name?: unknown }).name === "ToolError" &&
      typeof (error as { code?: unknown }).code === "string");
  return looksLike && (code === undefined || (error as ToolError).code === code);
}
