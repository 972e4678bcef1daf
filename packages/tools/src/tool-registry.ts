/**
 * The one record of Tackle's tools. Each entry names the function that makes the tool's
 * definition and the arguments of a real call (for help texts and docs); the tool names, the
 * option and definition types by name, `createToolDefinition` and the CLI's listing all derive
 * from it. A new tool is one file under `tools/` plus one line here.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type { ToolDefinition } from "@tackle/extensions";
import { createApplyPatchToolDefinition } from "./patch/tool.js";
import { createBashToolDefinition } from "./tools/bash.js";
import { createEditToolDefinition } from "./tools/edit.js";
import { createFindToolDefinition } from "./tools/find.js";
import { createGrepToolDefinition } from "./tools/grep.js";
import { createJobsToolDefinition } from "./tools/jobs.js";
import { createLsToolDefinition } from "./tools/ls.js";
import { createPowershellToolDefinition } from "./tools/powershell.js";
import { createReadToolDefinition } from "./tools/read.js";
import { createWriteToolDefinition } from "./tools/write.js";

/** One tool of the record: how to make it, and a call that shows it. */
export interface ToolEntry<TOptions, TParams extends TSchema, TDetails, TErrorCode extends string = never> {
  /** Makes the tool's definition; checks `options` (an unknown or wrong option throws). */
  create(options?: TOptions): ToolDefinition<TParams, TDetails, TErrorCode>;
  /** Arguments of a real call a newcomer can paste (typed by the tool's parameters). */
  example: Static<TParams>;
}

/** Declares an entry, with its example checked against the tool's parameters. */
function entry<TOptions, TParams extends TSchema, TDetails, TErrorCode extends string = never>(
  create: (options?: TOptions) => ToolDefinition<TParams, TDetails, TErrorCode>,
  example: Static<TParams>,
): ToolEntry<TOptions, TParams, TDetails, TErrorCode> {
  return { create, example };
}

/** Every tool, in the order `createAllTools` returns them. */
export const TOOLS = {
  read: entry(createReadToolDefinition, { path: "README.md", offset: 1, limit: 40 }),
  write: entry(createWriteToolDefinition, { path: "notes/todo.md", content: "- ship it\n" }),
  edit: entry(createEditToolDefinition, {
    path: "src/app.ts",
    edits: [{ oldText: "const answer = 41;", newText: "const answer = 42;" }],
  }),
  bash: entry(createBashToolDefinition, { command: "npm test", timeout: 300 }),
  grep: entry(createGrepToolDefinition, { pattern: "TODO", glob: "*.ts", context: 2 }),
  find: entry(createFindToolDefinition, { pattern: "src/**/*.test.ts" }),
  ls: entry(createLsToolDefinition, { path: "." }),
  powershell: entry(createPowershellToolDefinition, { command: "Get-ChildItem -Recurse -Filter *.ps1" }),
  jobs: entry(createJobsToolDefinition, { action: "list" }),
  apply_patch: entry(createApplyPatchToolDefinition, {
    input:
      "*** Begin Patch\n*** Update File: src/app.ts\n@@ export function main() {\n-  const answer = 41;\n+  const answer = 42;\n*** End Patch",
  }),
};

/**
 * Names of the tools: the eight, `jobs` (which manages what bash/powershell start in the
 * background) and `apply_patch` (the V4A patch format, for models trained on it).
 */
export type ToolName = keyof typeof TOOLS;

/** Every tool name, in the order `createAllTools` returns them. */
export const ALL_TOOL_NAMES = Object.keys(TOOLS) as readonly ToolName[] as readonly [ToolName, ...ToolName[]];

/** Options of each tool, by name. */
export type ToolOptionsByName = {
  [N in ToolName]: NonNullable<Parameters<(typeof TOOLS)[N]["create"]>[0]>;
};

/** The definition `createToolDefinition(name)` returns, by name. */
export type ToolDefinitionByName = { [N in ToolName]: ReturnType<(typeof TOOLS)[N]["create"]> };

/** Whether `name` is the name of one of the tools. */
export function isToolName(name: unknown): name is ToolName {
  return typeof name === "string" && Object.hasOwn(TOOLS, name);
}

/** The arguments of a real call of `name`, for help texts (see {@link ToolEntry.example}). */
export function toolExample(name: ToolName): Record<string, unknown> {
  return structuredClone(TOOLS[name].example) as Record<string, unknown>;
}
