/**
 * The shape of each audit event, checked when a file is read back. A line can be valid JSON of
 * the right version and still not be an event a reader can use (a tool of another version, a
 * hand edit, a bug): such a line is skipped and reported with what is wrong, so `tackle audit`
 * and any other reader never crash on it.
 */
import { AUDIT_EVENT_SCHEMAS, AUDIT_EVENT_VERSION, AuditEventBaseSchema } from "@tackle/agent-core";
import type { TSchema } from "@tackle/agent-core/typebox";

/** The JSON Schema keywords of an event schema this reader follows. */
interface SchemaNode {
  type?: string;
  const?: unknown;
  anyOf?: readonly SchemaNode[];
  properties?: Readonly<Record<string, SchemaNode>>;
  required?: readonly string[];
  items?: SchemaNode;
  patternProperties?: Readonly<Record<string, SchemaNode>>;
}

const node = (schema: TSchema): SchemaNode => schema as SchemaNode;
const KINDS: Readonly<Record<string, SchemaNode>> = Object.fromEntries(
  Object.entries(AUDIT_EVENT_SCHEMAS).map(([kind, schema]) => [kind, node(schema)]),
);

/** The fields every event has but `kind`, which is checked by looking its schema up. */
const BASE_WITHOUT_KIND: SchemaNode = (() => {
  const { properties = {}, required = [] } = node(AuditEventBaseSchema);
  const { kind: _kind, ...others } = properties;
  return { properties: others, required: required.filter((name) => name !== "kind") };
})();

/**
 * What is wrong with `value` as an audit event of this version, or `undefined` when it is one a
 * reader can use: checked against the event's schema (the one the event types are derived from),
 * the fields every event has first, then the kind's; unknown extra fields are allowed (a newer
 * writer may add some). The problem names the first field that is wrong, by its path.
 */
export function auditEventProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "not a JSON object";
  if (value.v !== AUDIT_EVENT_VERSION)
    return `version ${JSON.stringify(value.v)} is not ${AUDIT_EVENT_VERSION}`;
  const problem = objectProblem(value, BASE_WITHOUT_KIND, "");
  if (problem) return problem;
  const schema = typeof value.kind === "string" ? KINDS[value.kind] : undefined;
  if (!schema) return `unknown kind ${JSON.stringify(value.kind)}`;
  return objectProblem(value, schema, "");
}

function objectProblem(value: Record<string, unknown>, schema: SchemaNode, at: string): string | undefined {
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const where = at ? `${at}.${name}` : name;
    if (value[name] === undefined) {
      if (required.has(name)) return `${where} is missing`;
      continue;
    }
    const problem = valueProblem(value[name], field, where);
    if (problem) return problem;
  }
  for (const field of Object.values(schema.patternProperties ?? {})) {
    for (const [name, item] of Object.entries(value)) {
      const problem = valueProblem(item, field, at ? `${at}.${name}` : name);
      if (problem) return problem;
    }
  }
  return undefined;
}

function valueProblem(value: unknown, schema: SchemaNode, where: string): string | undefined {
  if (schema.anyOf) {
    const values = schema.anyOf.map((option) => option.const);
    return values.includes(value)
      ? undefined
      : `${where} should be one of ${values.join(", ")}, got ${describe(value)}`;
  }
  if (schema.const !== undefined)
    return value === schema.const
      ? undefined
      : `${where} should be ${JSON.stringify(schema.const)}, got ${describe(value)}`;
  switch (schema.type) {
    case "object":
      return isRecord(value)
        ? objectProblem(value, schema, where)
        : `${where} should be an object, got ${describe(value)}`;
    case "array": {
      const items = schema.items ?? {};
      if (!Array.isArray(value)) return `${where} should be ${arrayName(items)}, got ${describe(value)}`;
      if (items.type !== "object") {
        const wrong = value.findIndex((item) => valueProblem(item, items, "") !== undefined);
        return wrong < 0 ? undefined : `${where} should be ${arrayName(items)}, got ${describe(value)}`;
      }
      for (const [index, item] of value.entries()) {
        const problem = valueProblem(item, items, `${where}[${index}]`);
        if (problem) return problem;
      }
      return undefined;
    }
    case "string":
    case "number":
    case "boolean":
      return typeof value === schema.type
        ? undefined
        : `${where} should be ${schema.type}, got ${describe(value)}`;
    default:
      return undefined;
  }
}

const arrayName = (items: SchemaNode) => (items.type === "object" ? "an array" : `${items.type ?? "any"}[]`);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 40 ? `${typeof value} ${text.slice(0, 40)}…` : text;
}
