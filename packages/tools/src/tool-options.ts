/**
 * Checks the options a tool factory was given, once, when the tool is made. A wrong option
 * would otherwise reach the model as a nonsense description ("Shows at most -5 lines") or be
 * ignored without a word (`maxline: 10`); the error quotes the value and its type instead.
 */

/** What an option must be. */
export type OptionKind =
  | "positive-integer"
  | "positive-number"
  | "non-negative-number"
  | "boolean"
  | "object"
  | "object-or-false";

/** Options a factory accepts, by name, with what each must be. */
export type OptionSpec = Readonly<Record<string, OptionKind>>;

const EXPECTED: Record<OptionKind, string> = {
  "positive-integer": "a positive integer",
  "positive-number": "a positive number",
  "non-negative-number": "a number of 0 or more",
  boolean: "true or false",
  object: "an object",
  "object-or-false": "an object or false",
};

/** A value as an error quotes it: `-5 (number)`, `"10" (string)`, `null`, `[1,2] (array)`. */
export function quoteValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  const type = Array.isArray(value) ? "array" : typeof value;
  let shown: string;
  try {
    shown = typeof value === "number" || typeof value === "bigint" ? String(value) : JSON.stringify(value);
  } catch {
    shown = Object.prototype.toString.call(value);
  }
  if (shown === undefined) shown = String(value);
  if (shown.length > 80) shown = `${shown.slice(0, 77)}...`;
  return `${shown} (${type})`;
}

function fits(kind: OptionKind, value: unknown): boolean {
  switch (kind) {
    case "positive-integer":
      return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
    case "positive-number":
      return typeof value === "number" && Number.isFinite(value) && value > 0;
    case "non-negative-number":
      return typeof value === "number" && Number.isFinite(value) && value >= 0;
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "object-or-false":
      return value === false || fits("object", value);
  }
}

/**
 * Throws when `options` holds a name `spec` does not know (a misspelt option would be ignored)
 * or a value of the wrong kind. `undefined` values count as absent. `owner` names the factory
 * in the message ("bash tool").
 *
 * @example
 * ```ts
 * checkOptions("bash tool", { maxLines: -5 }, { maxLines: "positive-integer" });
 * // RangeError: bash tool: option maxLines must be a positive integer; got -5 (number).
 * ```
 */
export function checkOptions(owner: string, options: unknown, spec: OptionSpec): void {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(`${owner}: options must be an object; got ${quoteValue(options)}.`);
  }
  for (const [name, value] of Object.entries(options)) {
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (kind === undefined) {
      throw new TypeError(`${owner}: unknown option ${name}. Options: ${Object.keys(spec).join(", ")}.`);
    }
    if (value === undefined || fits(kind, value)) continue;
    // The right type with a value out of range is a RangeError; anything else a TypeError.
    const rightType = (kind.endsWith("number") || kind.endsWith("integer")) && typeof value === "number";
    const ErrorType = rightType ? RangeError : TypeError;
    throw new ErrorType(`${owner}: option ${name} must be ${EXPECTED[kind]}; got ${quoteValue(value)}.`);
  }
}

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
