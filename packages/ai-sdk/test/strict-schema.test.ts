import { type TSchema, Type } from "@sinclair/typebox";
import { prepareToolArguments } from "@tackle/agent-core";
import type { JsonSchema } from "@tackle/extensions";
import { createAllTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";
import { afterAll, describe, expect, it } from "vitest";
import { StrictSchemaError, toOpenAITools, toStrictJsonSchema } from "../src/index.js";

// OpenAI's function-calling strict mode ("Structured Outputs", platform.openai.com/docs/guides/
// structured-outputs, section "Supported schemas"): every object lists all its properties in
// `required` and sets `additionalProperties: false`; optional fields are unions with null; the
// root is an object; only these keywords are accepted.
const ACCEPTED = new Set([
  "type",
  "description",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "properties",
  "required",
  "additionalProperties",
  "items",
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

/** Every place a schema breaks the strict-mode rules, checked independently of the converter. */
function strictViolations(schema: JsonSchema, path = ""): string[] {
  const out: string[] = [];
  for (const key of Object.keys(schema)) if (!ACCEPTED.has(key)) out.push(`${path}: ${key} not accepted`);
  const isObject = schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"));
  if (isObject) {
    const names = Object.keys((schema.properties ?? {}) as object).sort();
    if (schema.additionalProperties !== false) out.push(`${path}: additionalProperties must be false`);
    if (JSON.stringify([...((schema.required as string[]) ?? [])].sort()) !== JSON.stringify(names))
      out.push(`${path}: every property must be required`);
    for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>))
      out.push(...strictViolations(child, `${path}/${name}`));
  }
  if (schema.items !== undefined) out.push(...strictViolations(schema.items as JsonSchema, `${path}/items`));
  for (const [i, variant] of ((schema.anyOf ?? []) as JsonSchema[]).entries())
    out.push(...strictViolations(variant, `${path}/anyOf/${i}`));
  return out;
}

/** A value a model could send for a schema: the first of each choice, lower bounds for numbers. */
function sample(schema: JsonSchema, leaveOutOptional: boolean): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.anyOf)) return sample(schema.anyOf[0] as JsonSchema, leaveOutOptional);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== "null");
  switch (type) {
    case "string":
      return "src/greet.mjs";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? Math.max(schema.minimum, 1) : 1;
    case "boolean":
      return false;
    case "array":
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () =>
        sample(schema.items as JsonSchema, leaveOutOptional),
      );
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
        const nullable = Array.isArray(child.type) && child.type.includes("null");
        out[name] = leaveOutOptional && nullable ? null : sample(child, leaveOutOptional);
      }
      return out;
    }
    default:
      return null;
  }
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

describe("toStrictJsonSchema", () => {
  const context = createLocalToolContext();
  afterAll(() => context.dispose());
  const tools = Object.values(createAllTools({ context }));

  it.each(tools.map((tool) => [tool.name, tool] as const))(
    "%s: the strict schema follows every strict-mode rule and round-trips through invokeTool's validation",
    (_name, tool) => {
      const strict = toStrictJsonSchema(tool.parameters);
      expect(strictViolations(strict)).toEqual([]);
      for (const leaveOut of [false, true]) {
        const sent = sample(strict, leaveOut) as Record<string, unknown>;
        const prepared = prepareToolArguments(tool, sent);
        expect(prepared.ok ? prepared.args : prepared.outcome.content).toEqual(withoutNulls(sent));
      }
    },
  );

  it("the strict form of read: optional fields nullable, all required, no extra properties", () => {
    const read = tools.find((tool) => tool.name === "read")!;
    expect(toStrictJsonSchema(read.parameters)).toMatchObject({
      type: "object",
      required: ["path", "offset", "limit"],
      additionalProperties: false,
      properties: { path: { type: "string" }, offset: { type: ["integer", "null"], minimum: 1 } },
    });
  });

  // What strict mode forbids, and what the converter does about it.
  const dropped: [string, TSchema][] = [
    ["minLength", Type.String({ minLength: 1 })],
    ["maxLength", Type.String({ maxLength: 9 })],
    ["default", Type.Integer({ default: 5 })],
    ["title", Type.String({ title: "Path" })],
    ["examples", Type.String({ examples: ["a.ts"] })],
    ["uniqueItems", Type.Array(Type.String(), { uniqueItems: true })],
    ["format", Type.String({ format: "uri" })],
    ["not", Type.String({ not: { const: "" } })],
    ["minProperties", Type.Object({ a: Type.String() }, { minProperties: 1 })],
    ["$id", Type.String({ $id: "x" })],
  ];
  it.each(dropped)("drops %s (validation against the original still enforces it)", (keyword, field) => {
    const strict = toStrictJsonSchema(Type.Object({ field }));
    expect(JSON.stringify(strict)).not.toContain(`"${keyword}"`);
    expect(strictViolations(strict)).toEqual([]);
  });

  it("keeps what strict mode accepts: pattern, known formats, numeric bounds, item counts, enums", () => {
    const strict = toStrictJsonSchema(
      Type.Object({
        id: Type.String({ pattern: "^[a-z]+$", format: "uuid" }),
        n: Type.Integer({ minimum: 1, maximum: 9, multipleOf: 1 }),
        xs: Type.Array(Type.Number({ exclusiveMinimum: 0 }), { minItems: 1, maxItems: 3 }),
        mode: Type.Union([Type.Literal("a"), Type.Literal("b")]),
      }),
    );
    expect(strict.properties).toMatchObject({
      id: { type: "string", pattern: "^[a-z]+$", format: "uuid" },
      n: { type: "integer", minimum: 1, maximum: 9, multipleOf: 1 },
      xs: { type: "array", minItems: 1, maxItems: 3, items: { type: "number", exclusiveMinimum: 0 } },
      mode: {
        anyOf: [
          { const: "a", type: "string" },
          { const: "b", type: "string" },
        ],
      },
    });
  });

  it("turns oneOf into anyOf and makes optional unions nullable", () => {
    const strict = toStrictJsonSchema({
      type: "object",
      properties: { v: { oneOf: [{ type: "string" }, { type: "integer" }] } },
    });
    expect(strict.properties).toEqual({
      v: { anyOf: [{ anyOf: [{ type: "string" }, { type: "integer" }] }, { type: "null" }] },
    });
    expect(strictViolations(strict)).toEqual([]);
  });

  const inexpressible: [string, TSchema | JsonSchema][] = [
    [
      "allOf",
      Type.Object({
        both: Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]),
      }),
    ],
    [
      "patternProperties",
      {
        type: "object",
        properties: { m: { type: "object", patternProperties: { "^x": { type: "string" } } } },
      },
    ],
    ["patternProperties", Type.Object({ env: Type.Record(Type.String(), Type.String()) })],
    [
      "additionalProperties",
      {
        type: "object",
        properties: { env: { type: "object", properties: {}, additionalProperties: { type: "string" } } },
      },
    ],
    [
      "items",
      {
        type: "object",
        properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
      },
    ],
    [
      "prefixItems",
      { type: "object", properties: { pair: { type: "array", prefixItems: [{ type: "string" }] } } },
    ],
    ["properties", { type: "object", properties: { anything: { type: "object" } } }],
    ["type", Type.String()],
  ];
  it.each(inexpressible)("refuses %s with a typed error naming where it is", (keyword, schema) => {
    let caught: unknown;
    try {
      toStrictJsonSchema(schema);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StrictSchemaError);
    expect(caught).toMatchObject({ code: "strict_unsupported", keyword });
  });

  it("toOpenAITools sends a tool strict mode cannot express as is, with strict: false, and the others strict", () => {
    const mapTool = {
      name: "setenv",
      description: "Sets variables.",
      parameters: Type.Object({ vars: Type.Record(Type.String(), Type.String()) }),
    };
    const read = tools.find((tool) => tool.name === "read")!;
    const [forRead, forMap] = toOpenAITools([read, mapTool], { strict: true });
    expect(forRead!.function.strict).toBe(true);
    expect(forMap!.function).toMatchObject({
      strict: false,
      parameters: { properties: { vars: { type: "object" } } },
    });
  });
});
