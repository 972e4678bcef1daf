import { OperationError } from "../errors.js";
import { checkOptions, type OptionSpec } from "./options-check.js";

/**
 * The options every adapter's `exec` defaults take, for a factory's {@link OptionSpec}: the kill
 * grace (0 or more ms) and the idle grace after exit (0 or more ms).
 */
export const EXEC_OPTION_SPEC = {
  killGraceMs: "non-negative-number",
  idleGraceMs: "non-negative-number",
} as const satisfies OptionSpec;

/**
 * {@link checkOptions} for an adapter factory: the same message, as an `OperationError` with
 * code `invalid_argument` (the way errors leave every adapter), the `TypeError` or `RangeError`
 * as its cause.
 *
 * @example
 * ```ts
 * checkAdapterOptions("createSshOperations", { maxChannels: 0 }, { maxChannels: "positive-integer" });
 * // OperationError invalid_argument: createSshOperations: option maxChannels must be a positive
 * // integer; got 0 (number).
 * ```
 */
export function checkAdapterOptions(factory: string, options: unknown, spec: OptionSpec): void {
  try {
    checkOptions(factory, options, spec);
  } catch (error) {
    throw new OperationError("invalid_argument", (error as Error).message, {
      operation: factory,
      cause: error,
    });
  }
}
