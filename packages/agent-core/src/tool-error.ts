/** Codes a tool error carries across layers (hosts branch on these, never on message text). */
export type ToolErrorCode =
  | "invalid_arguments"
  | "tool_not_found"
  | "blocked"
  | "aborted"
  | "timeout"
  | "not_found"
  | "outside_workspace"
  | "permission_denied"
  | "is_directory"
  | "not_directory"
  | "binary_file"
  | "special_file"
  | "too_large"
  | "stale_read"
  | "no_match"
  | "ambiguous_match"
  | "overlapping_edits"
  | "encoding"
  | "not_supported"
  | "connection_lost"
  | "interactive_prompt"
  | "policy_denied"
  | "hook_failed"
  | "execution_failed"
  | "length_stop"
  | "stale_context"
  | "invalid_schema"
  | (string & {});

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
