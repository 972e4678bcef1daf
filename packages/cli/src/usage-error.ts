/**
 * A mistake in how the CLI was called (bad flag, unknown tool, malformed JSON, bad env URL,
 * a working directory that does not exist). The message is written for a person at a terminal
 * and names what to do next; the process exits with {@link EXIT_USAGE}.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
  /** What kind of mistake: `tool_not_found`, `invalid_json`, or `usage` for any other. */
  readonly code: UsageErrorCode;

  constructor(message: string, options?: ErrorOptions & { code?: UsageErrorCode }) {
    super(message, options);
    this.code = options?.code ?? "usage";
  }
}

/** The kinds of {@link UsageError}, as `tackle tool --json` reports them in `errorCode`. */
export type UsageErrorCode = "usage" | "tool_not_found" | "invalid_json";

/**
 * The environment (`--env`) could not be reached or used: connection refused, unknown host name,
 * handshake timeout, host key or key refused, Docker engine down, container missing or stopped.
 * The message names the host, port or endpoint and the next step; `cause` keeps the adapter's
 * typed error. The process exits with {@link EXIT_ENVIRONMENT}.
 */
export class EnvironmentError extends Error {
  override readonly name = "EnvironmentError";
}

/** Exit code for a successful command. */
export const EXIT_OK = 0;
/** Exit code when the tool ran and reported an error (`isError: true`), or a run ended in an error. */
export const EXIT_TOOL_ERROR = 1;
/** Exit code for usage errors: the command never ran. */
export const EXIT_USAGE = 2;
/** Exit code when the environment could not be reached or used (see {@link EnvironmentError}). */
export const EXIT_ENVIRONMENT = 3;

/** The exit codes as `--help` and the README state them. */
export const EXIT_CODES_HELP = `Exit codes:
  0  success
  1  the tool reported an error (its message is on stdout, as the model reads it)
  2  usage error: unknown command, tool or flag, malformed JSON, arguments the tool's schema
     rejects, a bad --env URL, a --cwd that does not exist (message on stderr)
  3  the environment could not be reached or used: connection refused, unknown host, handshake
     timeout, host key or login refused, Docker engine down, container missing, stopped or
     paused (message on stderr, naming the next step)`;
