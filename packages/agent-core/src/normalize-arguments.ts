import type { TSchema } from "@sinclair/typebox";
import { defineField, FORBIDDEN_ARGUMENT_KEYS } from "./argument-snapshot.js";
import { Value } from "./typebox-runtime.js";

/**
 * Lenient repair of model-sent arguments, driven by the tool's schema. Models send numbers as
 * strings, booleans as `"true"`, `null` for fields they mean to leave out, nested objects as JSON
 * text and extra fields nobody asked for. Each repair here keeps the meaning of the call; anything
 * that would change it is left alone so validation reports it.
 *
 * Must not throw and must not mutate `value` (callers keep the raw arguments for events).
 * Repaired objects get their fields as own data properties (never through assignment, which
 * for a `__proto__` key would set the object's prototype); a `__proto__`, `constructor` or
 * `prototype` key the schema does not declare is kept as such an own property, so the caller
 * can refuse it (see `findForbiddenKey`) instead of it being silently dropped.
 *
 * @example
 * ```ts
 * normalizeArguments(Type.Object({ limit: Type.Optional(Type.Integer()) }), { limit: "5", junk: 1 });
 * // -> { limit: 5 }
 * ```
 */
export function normalizeArguments(schema: TSchema, value: unknown): unknown {
  if (schema.anyOf !== undefined) return normalizeUnion(schema.anyOf as TSchema[], value);
  if (schema.const !== undefined) return coerceToLiteral(schema.const, value);
  switch (schema.type) {
    case "object":
      return normalizeObject(schema, value);
    case "array":
      return normalizeArray(schema, value);
    case "number":
      return coerceToNumber(value, false);
    case "integer":
      return coerceToNumber(value, true);
    case "boolean":
      return coerceToBoolean(value);
    case "string":
      return typeof value === "number" || typeof value === "boolean" ? String(value) : value;
    default:
      return value;
  }
}

const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

function coerceToNumber(value: unknown, integer: boolean): unknown {
  if (typeof value !== "string" || !NUMERIC.test(value.trim())) return value;
  const number = Number(value.trim());
  // "2.5" for an integer field changes meaning (which line?); let validation say so.
  if (!Number.isFinite(number) || (integer && !Number.isInteger(number))) return value;
  return number;
}

function coerceToBoolean(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim().toLowerCase();
  if (text === "true") return true;
  if (text === "false") return false;
  return value;
}

function coerceToLiteral(literal: unknown, value: unknown): unknown {
  if (value === literal) return value;
  if (typeof literal === "number")
    return coerceToNumber(value, Number.isInteger(literal)) === literal ? literal : value;
  if (typeof literal === "boolean") return coerceToBoolean(value) === literal ? literal : value;
  if (typeof literal === "string" && (typeof value === "number" || typeof value === "boolean")) {
    return String(value) === literal ? literal : value;
  }
  return value;
}

/** A union keeps the first variant the repaired value satisfies; otherwise the value is left as sent. */
function normalizeUnion(variants: TSchema[], value: unknown): unknown {
  for (const variant of variants) {
    if (accepts(variant, value)) return normalizeArguments(variant, value);
  }
  for (const variant of variants) {
    const repaired = normalizeArguments(variant, value);
    if (accepts(variant, repaired)) return repaired;
  }
  return value;
}

/** Some models send a nested object or array as JSON text. */
function parseJsonText(value: unknown, open: string): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (!text.startsWith(open)) return value;
  try {
    return JSON.parse(text);
  } catch {
    return value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function normalizeObject(schema: TSchema, raw: unknown): unknown {
  const value = parseJsonText(raw, "{");
  if (!isPlainObject(value)) return value;
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const required = requiredOf(schema);
  const additional = schema.additionalProperties as boolean | TSchema | undefined;
  const patterns = schema.patternProperties as Record<string, TSchema> | undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = value[key];
    const fieldSchema = Object.hasOwn(properties, key) ? properties[key] : matchPattern(patterns, key);
    if (fieldSchema === undefined) {
      if (additional === true || FORBIDDEN_KEYS.has(key)) defineField(out, key, field);
      else if (typeof additional === "object") defineField(out, key, normalizeArguments(additional, field));
      // Unknown fields are dropped: a stray field never changes what the tool does.
      continue;
    }
    if (field === null && !required.has(key) && !accepts(fieldSchema, null)) continue;
    if (field === undefined) continue;
    defineField(out, key, normalizeArguments(fieldSchema, field));
  }
  return out;
}

const requiredKeys = new WeakMap<TSchema, Set<string>>();

/** The required field names of an object schema, as a set made once per schema. */
function requiredOf(schema: TSchema): Set<string> {
  let required = requiredKeys.get(schema);
  if (required === undefined) {
    required = new Set<string>((schema.required as string[] | undefined) ?? []);
    requiredKeys.set(schema, required);
  }
  return required;
}

/** Keys that reach the prototype when assigned; kept (as own data) for the caller to refuse. */
const FORBIDDEN_KEYS = new Set(FORBIDDEN_ARGUMENT_KEYS);

function matchPattern(patterns: Record<string, TSchema> | undefined, key: string): TSchema | undefined {
  if (patterns === undefined) return undefined;
  for (const [pattern, schema] of Object.entries(patterns)) {
    if (new RegExp(pattern).test(key)) return schema;
  }
  return undefined;
}

function normalizeArray(schema: TSchema, raw: unknown): unknown {
  const value = parseJsonText(raw, "[");
  const items = schema.items as TSchema | undefined;
  if (!Array.isArray(value)) {
    // A single item where a list is wanted ("paths": "a.ts") is still that one-item list.
    if (items === undefined || value === undefined || value === null) return value;
    const item = normalizeArguments(items, value);
    return accepts(items, item) ? [item] : value;
  }
  if (items === undefined) return value;
  return value.map((item) => normalizeArguments(items, item));
}

/** `Value.Check` that answers false instead of throwing on a schema TypeBox does not know. */
function accepts(schema: TSchema, value: unknown): boolean {
  try {
    return Value.Check(schema, value);
  } catch {
    return false;
  }
}
