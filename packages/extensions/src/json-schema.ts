import type { TSchema } from "@sinclair/typebox";
import type { AgentTool } from "@tackle/agent-core";
import type { AnyToolDefinition, ToolAnnotations } from "./tool-definition.js";
import { definitionOf } from "./wrap-tool-definition.js";

/** A JSON Schema document as plain data. */
export type JsonSchema = { [key: string]: unknown };

/** A tool as any model API wants it: name, description, plain JSON Schema parameters. */
export interface ExportedToolSchema {
  name: string;
  description: string;
  parameters: JsonSchema;
  annotations?: ToolAnnotations;
}

/**
 * A TypeBox schema as plain JSON Schema: TypeBox's symbol keys (`Kind`, `Optional`) dropped, no
 * shared references, safe to `JSON.stringify` or hand to a provider SDK.
 */
export function toJsonSchema(schema: TSchema): JsonSchema {
  return clean(schema) as JsonSchema;
}

function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  // Object.entries skips symbol keys, which is exactly what leaves TypeBox's markers behind.
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined && typeof field !== "function") out[key] = clean(field);
  }
  return out;
}

/** Exports tools (definitions or agent tools) for a model API, with annotations when known. */
export function exportToolSchemas(tools: readonly (AnyToolDefinition | AgentTool)[]): ExportedToolSchema[] {
  return tools.map((tool) => {
    const annotations = "annotations" in tool ? tool.annotations : definitionOf(tool)?.annotations;
    const exported: ExportedToolSchema = {
      name: tool.name,
      description: tool.description,
      parameters: toJsonSchema(tool.parameters),
    };
    if (annotations !== undefined) exported.annotations = { ...annotations };
    return exported;
  });
}
