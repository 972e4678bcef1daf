import type { TSchema } from "@sinclair/typebox";
import { type ValueError, ValueErrorType } from "@sinclair/typebox/errors";

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

/**
 * Turns TypeBox errors into one problem per field (the first error of a path wins, and errors
 * under an already reported path are dropped: a wrong parent explains its children).
 */
export function describeValidationErrors(errors: Iterable<ValueError>): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  const reported: string[] = [];
  for (const error of errors) {
    if (reported.some((path) => error.path === path || error.path.startsWith(`${path}/`))) continue;
    reported.push(error.path);
    const field = fieldName(error.path);
    const expected = describeSchema(error.schema);
    const missing = error.value === undefined || error.type === ValueErrorType.ObjectRequiredProperty;
    problems.push({
      field,
      expected,
      received: missing ? "nothing" : describeValue(error.value),
      fix: missing ? `Add ${field} (${expected}).` : `Send ${field} as ${expected}.`,
    });
  }
  return problems;
}

/** The model-facing text of a validation failure. */
export function formatValidationMessage(toolName: string, problems: ArgumentProblem[]): string {
  const lines = problems.map((p) => `- ${p.field}: expected ${p.expected}, received ${p.received}. ${p.fix}`);
  return [
    `Invalid arguments for ${toolName}:`,
    ...lines,
    "Call the tool again with corrected arguments.",
  ].join("\n");
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
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${value}`;
  if (typeof value === "object") return "object";
  return typeof value;
}
