/**
 * The error codes of the core, each with what it means: the failures the loop, `invokeTool`,
 * hooks, the mapping of environment errors (`OperationError` to `ToolError` in
 * `@tackle/extensions`) and the workspace path policy produce. Any tool may fail with these
 * without declaring them. A failure of a tool's own kind gets a code the tool declares on its
 * definition ({@link ErrorCodeMeanings}, `AgentTool.errorCodes`), so a new tool or an extension
 * fails in a new way without editing this list. Hosts branch on codes, never on message text.
 */
export const CORE_ERROR_CODES = {
  invalid_arguments:
    "The arguments do not fit the schema or make no sense (a model's, or a hook's replacement).",
  tool_not_found: "No tool of that name in the run.",
  blocked: "The host (a hook or policy) refused the call, or turned its result into an error.",
  aborted: "Stopped by an abort signal.",
  timeout: "A time limit ran out (a command's timeout, an environment operation's).",
  not_found: "The file or directory does not exist (also: it leads into a loop of links).",
  outside_workspace: "The path lies outside the workspace roots and the policy does not allow that access.",
  permission_denied: "The environment's user may not access the path.",
  is_directory: "A file was expected and a directory found.",
  not_directory: "A directory was expected and a file found.",
  special_file: "A FIFO, socket or device: no tool opens one (it could block forever or act on hardware).",
  too_large: "The file or output is too large for the operation.",
  stale_read:
    "The file changed since the model last read it, or another writer changed it while it was being written.",
  not_supported: "The environment cannot do this (no PowerShell, no readlink...).",
  connection_lost:
    "The environment became unreachable (an SSH connection dropped, the Docker engine went away).",
  policy_denied: "A policy refused the call, or it needed approval that was not given.",
  hook_failed: "A beforeToolCall/afterToolCall hook threw.",
  execution_failed:
    "The tool ran and failed (a non-zero exit code, an unexpected failure, a ToolError with a code the tool did not declare).",
  length_stop: "The model's reply was cut by the token limit, so its calls were not run.",
  stale_context: "The call used a context that was disposed or replaced (an unloaded extension's).",
  invalid_schema: "The tool's parameters are not a schema that can be checked (a tool author's bug).",
} as const satisfies ErrorCodeMeanings;

/** One of {@link CORE_ERROR_CODES}: a code any tool may fail with, declared or not. */
export type CoreErrorCode = keyof typeof CORE_ERROR_CODES;

/** True when `code` is one of {@link CORE_ERROR_CODES} (for codes that arrive as plain strings). */
export function isCoreErrorCode(code: unknown): code is CoreErrorCode {
  return typeof code === "string" && Object.hasOwn(CORE_ERROR_CODES, code);
}

/**
 * A tool's own error codes, each with what it means (one sentence for docs, descriptions and
 * hosts): what `AgentTool.errorCodes` holds. Codes are `snake_case` and never repeat a core code.
 *
 * @example
 * ```ts
 * const errorCodes = { no_match: "oldText was not found in the file." } satisfies ErrorCodeMeanings;
 * ```
 */
export type ErrorCodeMeanings<TCode extends string = string> = { readonly [K in TCode]: string };

/** Options for {@link ToolError}. */
export interface ToolErrorOptions<TDetails = unknown> {
  /** Structured data for the result's `details`. */
  details?: TDetails;
  cause?: unknown;
}

/**
 * A failure a tool reports to the model. `message` is model-facing: short, exact, and names the
 * next step ("File not found: src/a.ts. Did you mean src/app.ts?"). `code` is a core code or
 * one the throwing tool declares in its `errorCodes`; `invokeTool` reports any other code as
 * `execution_failed` (see `AgentTool.errorCodes`).
 *
 * @example
 * ```ts
 * throw new ToolError("not_found", `File not found: ${path}. Use ls to see what exists.`);
 * ```
 */
export class ToolError<TDetails = unknown, TCode extends string = string> extends Error {
  override readonly name = "ToolError";
  /** A core code ({@link CoreErrorCode}) or one the tool declares in its `errorCodes`. */
  readonly code: TCode;
  readonly details: TDetails | undefined;

  constructor(code: TCode, message: string, options: ToolErrorOptions<TDetails> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }
}

/** True when `error` is a {@link ToolError} (also across package copies), optionally with a code. */
export function isToolError<TCode extends string = string>(
  error: unknown,
  code?: TCode,
): error is ToolError<unknown, TCode> {
  const looksLike =
    error instanceof ToolError ||
    (typeof error === "object" &&
      error !== null &&
      (error as { name?: unknown }).name === "ToolError" &&
      typeof (error as { code?: unknown }).code === "string");
  return looksLike && (code === undefined || (error as ToolError).code === code);
}
