/**
 * Tools word environment failures through the one mapping in `@tackle/extensions`
 * (`toToolError`): an `OperationError` becomes a `ToolError` of the same code family with a next
 * step. Re-exported here, where tool authors look for it, with the refusal of special files.
 */
import { quoteInput, ToolError } from "@tackle/agent-core";

export { specialFileError, toToolError } from "@tackle/extensions";

/** Characters of a search engine's own message kept in an error (rg's quotes the whole pattern). */
export const ENGINE_MESSAGE_CHARS = 2000;

/**
 * Refuses a NUL byte in a search argument: no process can be given one in its arguments (spawn
 * throws), and text files, the only ones searched, never hold one.
 */
export function refuseNulByte(field: string, value: string | undefined): void {
  if (value === undefined || !value.includes("\0")) return;
  throw new ToolError(
    "invalid_arguments",
    `${field} ${quoteInput(value)} contains a NUL byte (\\0), which no search can take. Send ${field} without it.`,
    { details: { field } },
  );
}
