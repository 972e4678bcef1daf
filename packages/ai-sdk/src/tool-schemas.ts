import type { AgentTool } from "@tackle/agent-core";
import { type JsonSchema, toJsonSchema } from "@tackle/extensions";
import { toStrictJsonSchema } from "./strict-schema.js";

/** What a tool needs to be described to a model: its name, description and TypeBox parameters. */
export type ToolSchemaSource = Pick<AgentTool, "name" | "description" | "parameters">;

/** Tools as a list, or as the by-name object the `@tackle/tools` factories return. */
export type ToolList<T> = readonly T[] | Readonly<Record<string, T>>;

/** The tools of a {@link ToolList}, in order. */
export function listTools<T>(tools: ToolList<T>): readonly T[] {
  return Array.isArray(tools) ? tools : Object.values(tools as Readonly<Record<string, T>>);
}

/** A tool's parameters for one API, and whether they are in strict form. */
export interface ToolParameters {
  schema: JsonSchema;
  strict: boolean;
}

const plainCache = new WeakMap<object, JsonSchema>();
const strictCache = new WeakMap<object, ToolParameters>();

/**
 * A tool's parameters as plain JSON Schema, or in strict form when asked and possible. A schema
 * strict mode cannot express falls back to the plain schema with `strict: false` for that tool
 * alone (OpenAI accepts a mix), rather than failing the whole request. Converted once per schema.
 */
export function toolParameters(tool: ToolSchemaSource, strict: boolean): ToolParameters {
  const source = tool.parameters as object;
  if (strict) {
    let cached = strictCache.get(source);
    if (cached === undefined) {
      try {
        cached = { schema: toStrictJsonSchema(tool.parameters), strict: true };
      } catch {
        cached = { schema: plainSchema(tool), strict: false };
      }
      strictCache.set(source, cached);
    }
    return cached;
  }
  return { schema: plainSchema(tool), strict: false };
}

function plainSchema(tool: ToolSchemaSource): JsonSchema {
  const source = tool.parameters as object;
  let schema = plainCache.get(source);
  if (schema === undefined) {
    schema = toJsonSchema(tool.parameters);
    plainCache.set(source, schema);
  }
  return schema;
}
