/**
 * Checks the options a factory was given, once, when it is called. A wrong option would
 * otherwise fail much later and far away (`maxChannels: 0` makes every exec wait forever, a
 * misspelt `killGraceMS` is ignored without a word); the error names the option and quotes the
 * value and its type instead. Used by every adapter factory and by the tool factories.
 */

/** What an option must be, by name. */
export type OptionKind =
  | "positive-integer"
  | "non-negative-integer"
  | "positive-number"
  | "non-negative-number"
  | "boolean"
  | "string"
  | "non-empty-string"
  | "function"
  | "object"
  | "object-or-false";

/**
 * What an option must be: a named kind, or a check of its own with the words that say what it
 * expects ("\"auto\", a path or false").
 */
export type OptionRule =
  | OptionKind
  | { readonly expected: string; readonly test: (value: unknown) => boolean };

/** Options a factory accepts, by name, with what each must be. */
export type OptionSpec = Readonly<Record<string, OptionRule>>;

const EXPECTED: Record<OptionKind, string> = {
  "positive-integer": "a positive integer",
  "non-negative-integer": "an integer of 0 or more",
  "positive-number": "a positive number",
  "non-negative-number": "a number of 0 or more",
  boolean: "true or false",
  string: "a string",
  "non-empty-string": "a non-empty string",
  function: "a function",
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
    case "non-negative-integer":
      return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
    case "positive-number":
      return typeof value === "number" && Number.isFinite(value) && value > 0;
    case "non-negative-number":
      return typeof value === "number" && Number.isFinite(value) && value >= 0;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "non-empty-string":
      return typeof value === "string" && value.trim() !== "";
    case "function":
      return typeof value === "function";
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "object-or-false":
      return value === false || fits("object", value);
  }
}

/**
 * Throws when `options` holds a name `spec` does not know (a misspelt option would be ignored)
 * or a value of the wrong kind: a `RangeError` for a number out of range, a `TypeError`
 * otherwise. `undefined` values count as absent. `owner` names the factory in the message.
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
    const rule = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (rule === undefined) {
      throw new TypeError(`${owner}: unknown option ${name}. Options: ${Object.keys(spec).join(", ")}.`);
    }
    if (value === undefined) continue;
    if (typeof rule === "string" ? fits(rule, value) : rule.test(value)) continue;
    // The right type with a value out of range is a RangeError; anything else a TypeError.
    const numeric = typeof rule === "string" && (rule.endsWith("number") || rule.endsWith("integer"));
    const ErrorType = numeric && typeof value === "number" ? RangeError : TypeError;
    const expected = typeof rule === "string" ? EXPECTED[rule] : rule.expected;
    throw new ErrorType(`${owner}: option ${name} must be ${expected}; got ${quoteValue(value)}.`);
  }
}
