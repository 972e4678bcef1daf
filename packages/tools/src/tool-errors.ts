/**
 * Tools word environment failures through the one mapping in `@tackle/extensions`
 * (`toToolError`): an `OperationError` becomes a `ToolError` of the same code family with a next
 * step. Re-exported here, where tool authors look for it, with the refusal of special files.
 */
export { specialFileError, toToolError } from "@tackle/extensions";
