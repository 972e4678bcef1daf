import type { TSchema } from "@sinclair/typebox";
import { type JsonSchema, toJsonSchema } from "@tackle/extensions";

/** Thrown by {@link toStrictJsonSchema} for a schema strict mode cannot express. */
export class StrictSchemaError extends Error {
  override readonly name = "StrictSchemaError";
  /** Always `strict_unsupported`: branch on this, not the message. */
  readonly code = "strict_unsupported";
  /** JSON pointer of the offending node (`""` for the root). */
  readonly path: string;
  /** The keyword strict mode cannot express there. */
  readonly keyword: string;

  constructor(path: string, keyword: string, why: string) {
    super(`Strict mode cannot express ${keyword} at ${path || "the root"}: ${why}.`);
    this.path = path;
    this.keyword = keyword;
  }
}

/**
 * Keywords OpenAI's strict mode accepts (its "Supported schemas" guide): structure, `description`,
 * `enum`/`const`, `anyOf`, definitions and references, and per type `pattern`/`format` for
 * strings, the numeric bounds for numbers, and `minItems`/`maxItems` for arrays. Every other
 * keyword is dropped from the schema sent (`minLength`, `default`, `title`, `uniqueItems`, ...);
 * validation against the original schema still enforces what it said.
 */
const KEPT = new Set([
  "type",
  "description",
  "enum",
  "const",
  "$ref",
  "pattern",
  "format",
  "multipleOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
]);

/** String formats strict mode knows; others are dropped. */
const FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/** Keywords whose meaning cannot be kept in strict mode and cannot be dropped without changing the shape. */
const INEXPRESSIBLE: Record<string, string> = {
  allOf: "strict mode has no allOf; flatten the intersection into one object",
  patternProperties: "every property must be named",
  prefixItems: "strict mode has no tuples",
  dependentSchemas: "properties cannot depend on each other",
  if: "strict mode has no conditionals",
};

/**
 * A tool schema as OpenAI's strict mode accepts it: every object lists all its properties in
 * `required` and has `additionalProperties: false`; a property that was optional becomes
 * nullable instead (the model sends `null` to leave it out, and `invokeTool`'s lenient step drops
 * that `null` again before validation); `oneOf` becomes `anyOf`; unsupported keywords are dropped.
 * Throws {@link StrictSchemaError} for what strict mode cannot express (free-form maps,
 * `patternProperties`, `allOf`, tuples, a root that is not an object).
 *
 * @example
 * ```ts
 * toStrictJsonSchema(Type.Object({ path: Type.String(), limit: Type.Optional(Type.Integer()) }));
 * // { type: "object", properties: { path: { type: "string" }, limit: { type: ["integer", "null"] } },
 * //   required: ["path", "limit"], additionalProperties: false }
 * ```
 */
export function toStrictJsonSchema(schema: TSchema | JsonSchema): JsonSchema {
  const plain = toJsonSchema(schema as TSchema);
  if (plain.type !== "object") throw new StrictSchemaError("", "type", "the root must be an object");
  return convert(plain, "", false);
}

function convert(node: JsonSchema, path: string, nullable: boolean): JsonSchema {
  for (const keyword of Object.keys(INEXPRESSIBLE)) {
    if (node[keyword] !== undefined) throw new StrictSchemaError(path, keyword, INEXPRESSIBLE[keyword]!);
  }
  if (Array.isArray(node.items)) throw new StrictSchemaError(path, "items", "strict mode has no tuples");
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (!KEPT.has(key)) continue;
    if (key === "format" && !FORMATS.has(String(value))) continue;
    out[key] = value;
  }
  const variants = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (variants !== undefined) {
    const keyword = node.anyOf !== undefined ? "anyOf" : "oneOf";
    out.anyOf = variants.map((variant, i) => convert(variant, `${path}/${keyword}/${i}`, false));
  }
  for (const defs of ["$defs", "definitions"]) {
    const table = node[defs] as Record<string, JsonSchema> | undefined;
    if (table === undefined) continue;
    out[defs] = Object.fromEntries(
      Object.entries(table).map(([name, def]) => [name, convert(def, `${path}/${defs}/${name}`, false)]),
    );
  }
  if (isObjectNode(node)) convertObject(node, out, path);
  if (node.items !== undefined) out.items = convert(node.items as JsonSchema, `${path}/items`, false);
  return nullable ? withNull(out) : out;
}

function isObjectNode(node: JsonSchema): boolean {
  return (
    node.type === "object" ||
    (Array.isArray(node.type) && node.type.includes("object")) ||
    "properties" in node
  );
}

function convertObject(node: JsonSchema, out: JsonSchema, path: string): void {
  const extra = node.additionalProperties;
  if (extra !== undefined && extra !== false) {
    throw new StrictSchemaError(
      path,
      "additionalProperties",
      "every property must be named (no free-form maps)",
    );
  }
  const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
  if (node.properties === undefined) {
    throw new StrictSchemaError(path, "properties", "an object without named properties is a free-form map");
  }
  const names = Object.keys(properties);
  const required = new Set((node.required as string[] | undefined) ?? []);
  out.properties = Object.fromEntries(
    names.map((name) => [
      name,
      convert(properties[name]!, `${path}/properties/${name}`, !required.has(name)),
    ]),
  );
  out.required = names;
  out.additionalProperties = false;
}

/** The same schema, also accepting `null` (how strict mode says "optional"). */
function withNull(schema: JsonSchema): JsonSchema {
  if (acceptsNull(schema)) return schema;
  const { type } = schema;
  if (schema.const === undefined && (typeof type === "string" || Array.isArray(type))) {
    const out: JsonSchema = { ...schema, type: [...(Array.isArray(type) ? type : [type]), "null"] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  return { anyOf: [schema, { type: "null" }] };
}

function acceptsNull(schema: JsonSchema): boolean {
  const { type } = schema;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  const variants = schema.anyOf as JsonSchema[] | undefined;
  return variants?.some(acceptsNull) ?? false;
}
