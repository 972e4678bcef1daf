/**
 * Checks the options a tool factory was given, once, when the tool is made. A wrong option
 * would otherwise reach the model as a nonsense description ("Shows at most -5 lines") or be
 * ignored without a word (`maxline: 10`); the error quotes the value and its type instead. The
 * check itself is the one every adapter factory uses (`@tackle/operations/adapter`).
 */
export type { OptionKind, OptionSpec } from "@tackle/operations/adapter";
export { checkOptions, quoteValue } from "@tackle/operations/adapter";
/**
 * A search tool's default page size, never above its line cap (one line per result): a lower
 * `maxLines` alone lowers the default with it; a `defaultLimit` given above it is a mistake.
 */
export function defaultLimitWithin(
  owner: string,
  given: number | undefined,
  fallback: number,
  maxLines: number,
): number {
  if (given === undefined) return Math.min(fallback, maxLines);
  if (given > maxLines) {
    throw new RangeError(
      `${owner}: option defaultLimit (${given}) is above maxLines (${maxLines}), which caps every page; lower defaultLimit or raise maxLines.`,
    );
  }
  return given;
}
