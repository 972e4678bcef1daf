/**
 * A mistake in how the CLI was called (bad flag, unknown tool, malformed JSON, bad env URL).
 * The message is written for a person at a terminal and names what to do next; the process
 * exits with {@link EXIT_USAGE}.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Exit code for a successful command. */
export const EXIT_OK = 0;
/** Exit code when the tool ran and reported an error (`isError: true`). */
export const EXIT_TOOL_ERROR = 1;
/** Exit code for usage errors: the command never ran. */
export const EXIT_USAGE = 2;
