/**
 * `tackle tool --list` and `tackle tool <name> --help`: what each tool is for and what it takes,
 * read from the tool definitions themselves (description, annotations, TypeBox schema), so the
 * help cannot drift from what the tools accept.
 */
import type { AnyToolDefinition } from "@tackle/extensions";
import { ALL_TOOL_NAMES, createToolDefinition, isToolName, type ToolName, toolExample } from "@tackle/tools";

/** One line of `tackle tool --list`. */
export interface ToolSummary {
  name: string;
  /** From the tool's `readOnlyHint` annotation. */
  readOnly: boolean;
  /** The first sentence of the tool's description. */
  summary: string;
  /** Why the environment cannot run it (powershell where no `pwsh` exists); absent when it can. */
  unavailable?: string;
}

/** Tools the environment cannot run, by name, with the reason `tackle tool --list` shows. */
export type UnavailableTools = ReadonlyMap<string, string>;

/** The reason `--list` gives for powershell where `pwsh` does not run. */
export const NO_PWSH = "unavailable here: no pwsh in this environment";

/** The definition of every tool, in the order of `ALL_TOOL_NAMES`. */
export function toolDefinitions(): AnyToolDefinition[] {
  return ALL_TOOL_NAMES.map((name) => createToolDefinition(name) as AnyToolDefinition);
}

/**
 * The first sentence of a description: up to the first period followed by a capital letter or
 * the end (so "e.g. '*.ts'" does not end it).
 */
export function firstSentence(text: string): string {
  const match = /^[\s\S]*?[.!?](?=\s+[A-Z]|\s*$)/.exec(text.trim());
  return (match ? match[0] : text.trim()).replace(/\s+/g, " ");
}

/** Name, read-only flag and summary of every tool, and why a tool cannot run when it cannot. */
export function toolSummaries(unavailable: UnavailableTools = new Map()): ToolSummary[] {
  return toolDefinitions().map((definition) => {
    const reason = unavailable.get(definition.name);
    return {
      name: definition.name,
      readOnly: definition.annotations?.readOnlyHint === true,
      summary: firstSentence(definition.description),
      ...(reason !== undefined ? { unavailable: reason } : {}),
    };
  });
}

/** The text of `tackle tool --list`; a tool the environment cannot run says so before its summary. */
export function formatToolList(unavailable: UnavailableTools = new Map()): string {
  const summaries = toolSummaries(unavailable);
  const width = Math.max(...summaries.map((tool) => tool.name.length)) + 2;
  const lines = summaries.map(
    (tool) =>
      `  ${tool.name.padEnd(width)}${(tool.readOnly ? "read-only" : "writes").padEnd(11)}${tool.unavailable ? `(${tool.unavailable}) ` : ""}${tool.summary}`,
  );
  return `Tools (tackle tool <name> --help for parameters):\n${lines.join("\n")}`;
}

interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  default?: unknown;
}

/** A short type name for one schema: `string`, `integer >= 1`, `array of {oldText, newText, replaceAll?}`. */
export function describeType(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map(describeType).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  if (type === "array") return `array of ${schema.items ? describeType(schema.items) : "any"}`;
  if (type === "object" && schema.properties) {
    const required = new Set(schema.required ?? []);
    const fields = Object.keys(schema.properties).map((key) => (required.has(key) ? key : `${key}?`));
    return `{${fields.join(", ")}}`;
  }
  const bounds = [
    schema.minimum !== undefined ? `>= ${schema.minimum}` : "",
    schema.maximum !== undefined ? `<= ${schema.maximum}` : "",
  ].filter(Boolean);
  return [type, ...bounds].join(" ");
}

/** The example arguments of a tool: the curated one, else its required fields with placeholders. */
export function exampleArguments(definition: AnyToolDefinition): Record<string, unknown> {
  // Real calls a newcomer can paste, from the tools' own record; a tool from elsewhere gets one
  // built from its required fields.
  const curated = isToolName(definition.name) ? toolExample(definition.name) : undefined;
  if (curated) return curated;
  const schema = definition.parameters as JsonSchema;
  const example: Record<string, unknown> = {};
  for (const key of schema.required ?? []) {
    const type = schema.properties?.[key]?.type;
    example[key] = type === "integer" || type === "number" ? 1 : type === "boolean" ? true : "...";
  }
  return example;
}

/** Parameter lines for one object schema, nested objects (such as edit's `edits`) indented below. */
function parameterLines(schema: JsonSchema, indent: string): string[] {
  const required = new Set(schema.required ?? []);
  const lines: string[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const need = required.has(key) ? "required" : "optional";
    lines.push(`${indent}${key} (${describeType(property)}, ${need})`);
    if (property.description) lines.push(`${indent}    ${property.description}`);
    const nested = property.type === "array" ? property.items : property;
    if (nested?.type === "object" && nested.properties)
      lines.push(...parameterLines(nested, `${indent}    `));
  }
  return lines;
}

/** Quotes a JSON text for a POSIX shell (single quotes, an embedded ' closed and reopened). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The text of `tackle tool <name> --help`: description, annotations, parameters, example. */
export function formatToolHelp(name: ToolName): string {
  const definition = createToolDefinition(name) as AnyToolDefinition;
  const schema = definition.parameters as JsonSchema;
  const hints = definition.annotations ?? {};
  const traits = [
    hints.readOnlyHint ? "read-only" : "writes",
    hints.destructiveHint ? "may overwrite or delete" : "",
    hints.openWorldHint ? "may reach beyond the workspace" : "",
  ].filter(Boolean);
  const params = parameterLines(schema, "  ");
  return [
    `tackle tool ${name} — ${definition.label} (${traits.join(", ")})`,
    "",
    definition.description,
    "",
    "Parameters (JSON object):",
    ...(params.length > 0 ? params : ["  (none)"]),
    "",
    "Example:",
    `  tackle tool ${name} ${shellQuote(JSON.stringify(exampleArguments(definition)))}`,
    "",
    "Flags (--cwd, --env, --json, ...): tackle tool --help",
  ].join("\n");
}
