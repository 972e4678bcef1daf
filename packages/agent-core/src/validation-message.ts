import type { TSchema } from "@sinclair/typebox";
import { boundText, formatCount, quoteInput, shortenInput } from "./quote-input.js";
import { type ValueError, ValueErrorType } from "./typebox-runtime.js";

/** One field that failed validation, in words a model can act on. */
export interface ArgumentProblem {
  /** Field path as the model wrote it, e.g. `edits[0].oldText`; `arguments` for the whole object. */
  field: string;
  /** What the schema wants, e.g. `integer >= 1`. */
  expected: string;
  /** What arrived, e.g. `string "abc"` or `nothing`. */
  received: string;
  /** The next step, e.g. `Send limit as integer >= 1.` */
  fix: string;
}

/** Problems a validation message lists; the others are only counted ("and 29,990 more"). */
export const ARGUMENT_PROBLEMS_SHOWN = 10;

/**
 * TypeBox errors read to count problems. Reading them costs about a microsecond each; past this
 * many the count stops and is reported as a lower bound, so a huge malformed argument (60,000
 * numbers where objects belong) costs milliseconds, not seconds of a blocked event loop.
 */
export const ARGUMENT_ERRORS_SCANNED = 10_000;

/** Characters of a field name or value quoted in a problem line. */
const QUOTE_CHARS = 60;

/** The problems of one validation failure: the first few in full, the rest counted. */
export interface ValidationSummary {
  /** The first {@link ARGUMENT_PROBLEMS_SHOWN} problems, in the order TypeBox reports them. */
  problems: ArgumentProblem[];
  /** Problems found but not listed. */
  more: number;
  /** True when counting stopped at {@link ARGUMENT_ERRORS_SCANNED} errors: `more` is a lower bound. */
  moreAtLeast: boolean;
}

/**
 * Turns TypeBox errors into problems, one per field: the first error of a path wins, and errors
 * under an already counted path are dropped (a wrong parent explains its children). Linear in
 * the errors read: each error looks up its ancestors in a set (the depth of its path), and at
 * most {@link ARGUMENT_ERRORS_SCANNED} errors are read.
 */
export function summarizeValidationErrors(errors: Iterable<ValueError>): ValidationSummary {
  const problems: ArgumentProblem[] = [];
  const counted = new Set<string>();
  let total = 0;
  let scanned = 0;
  let moreAtLeast = false;
  for (const error of errors) {
    if (++scanned > ARGUMENT_ERRORS_SCANNED) {
      moreAtLeast = true;
      break;
    }
    if (underCounted(counted, error.path)) continue;
    counted.add(error.path);
    total++;
    if (problems.length < ARGUMENT_PROBLEMS_SHOWN) problems.push(describeError(error));
  }
  return { problems, more: total - problems.length, moreAtLeast };
}

/**
 * The listed problems of {@link summarizeValidationErrors} (at most {@link ARGUMENT_PROBLEMS_SHOWN}).
 */
export function describeValidationErrors(errors: Iterable<ValueError>): ArgumentProblem[] {
  return summarizeValidationErrors(errors).problems;
}

/** True when `path` or one of its ancestors (`/a/b` -> `/a/b`, `/a`, ``) was counted already. */
function underCounted(counted: ReadonlySet<string>, path: string): boolean {
  let prefix = path;
  for (;;) {
    if (counted.has(prefix)) return true;
    if (prefix === "") return false;
    prefix = prefix.slice(0, prefix.lastIndexOf("/"));
  }
}

function describeError(error: ValueError): ArgumentProblem {
  const field = shortenInput(fieldName(error.path), QUOTE_CHARS);
  const expected = describeSchema(error.schema);
  const missing = error.value === undefined || error.type === ValueErrorType.ObjectRequiredProperty;
  return {
    field,
    expected,
    received: missing ? "nothing" : describeValue(error.value),
    fix: missing ? `Add ${field} (${expected}).` : `Send ${field} as ${expected}.`,
  };
}

/**
 * The model-facing text of a validation failure: the listed problems, how many more there are,
 * and the next step. Bounded whatever the input (see {@link boundText}).
 */
export function formatValidationMessage(
  toolName: string,
  problems: ArgumentProblem[] | ValidationSummary,
): string {
  const summary = Array.isArray(problems) ? { problems, more: 0, moreAtLeast: false } : problems;
  const lines = summary.problems.map(
    (p) => `- ${p.field}: expected ${p.expected}, received ${p.received}. ${p.fix}`,
  );
  if (summary.moreAtLeast) {
    const count = summary.more > 0 ? `at least ${formatCount(summary.more)}` : "possibly";
    lines.push(`- and ${count} more problems (not all counted).`);
  } else if (summary.more > 0) {
    lines.push(
      `- and ${formatCount(summary.more)} more problem${summary.more === 1 ? "" : "s"} (not listed).`,
    );
  }
  return boundText(
    [`Invalid arguments for ${toolName}:`, ...lines, "Call the tool again with corrected arguments."].join(
      "\n",
    ),
  );
}

/** `/edits/0/oldText` -> `edits[0].oldText`. */
function fieldName(path: string): string {
  if (path === "") return "arguments";
  let name = "";
  for (const part of path.split("/").slice(1)) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    name += /^\d+$/.test(key) ? `[${key}]` : name === "" ? key : `.${key}`;
  }
  return name;
}

/** Short words for a schema: `string`, `integer >= 1`, `one of "a", "b"`, `array of string`. */
export function describeSchema(schema: TSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.anyOf)) {
    const variants = schema.anyOf as TSchema[];
    if (variants.every((v) => v.const !== undefined)) {
      return `one of ${variants.map((v) => JSON.stringify(v.const)).join(", ")}`;
    }
    return variants.map(describeSchema).join(" or ");
  }
  const type = typeof schema.type === "string" ? schema.type : "value";
  const bounds: string[] = [];
  if (type === "number" || type === "integer") {
    if (schema.minimum !== undefined) bounds.push(`>= ${schema.minimum}`);
    if (schema.exclusiveMinimum !== undefined) bounds.push(`> ${schema.exclusiveMinimum}`);
    if (schema.maximum !== undefined) bounds.push(`<= ${schema.maximum}`);
    if (schema.exclusiveMaximum !== undefined) bounds.push(`< ${schema.exclusiveMaximum}`);
  }
  if (type === "string") {
    if (schema.minLength !== undefined) bounds.push(`of at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined) bounds.push(`of at most ${schema.maxLength} characters`);
    if (schema.pattern !== undefined) bounds.push(`matching /${schema.pattern}/`);
  }
  if (type === "array") {
    const items = schema.items as TSchema | undefined;
    const base = items === undefined ? "array" : `array of ${describeSchema(items)}`;
    if (schema.minItems !== undefined) bounds.push(`with at least ${schema.minItems} items`);
    return [base, ...bounds].join(" ");
  }
  if (type === "object" && Array.isArray(schema.required) && schema.required.length > 0) {
    return `object with ${(schema.required as string[]).join(", ")}`;
  }
  return [type, ...bounds].join(" ");
}

/** Short words for a value: `string "abc"`, `number 5`, `null`, `array of 3 items`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (typeof value === "string") return `string ${quoteInput(value, QUOTE_CHARS)}`;
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${value}`;
  if (typeof value === "object") return "object";
  return typeof value;
}
