// An extension with the three things extensions do: a tool of its own, a `tool_call` guard that
// refuses some calls, and `tool_result` middleware that rewrites results. A scripted (faux) model
// drives the agent loop over the real tools of a temporary folder; run with `npx tsx extension.ts`.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { Agent, ToolError } from "@tackle/agent-core";
import { createFauxModel, fauxToolCall } from "@tackle/agent-core/testing";
import { defineExtension, defineTool, ExtensionRunner } from "@tackle/extensions";
import { createToolDefinition } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";

// #region extension
/** A tool: counts the TODO lines of a file, through whatever environment the call's context is on. */
const todoCount = defineTool({
  name: "todo_count",
  label: "Count TODOs",
  description: "Counts the lines with TODO in a text file. Use it to size the work before reading.",
  annotations: { readOnlyHint: true, idempotentHint: true },
  parameters: Type.Object({ path: Type.String({ description: "File, relative to the working directory" }) }),
  // A failure of its own kind gets a code of its own, declared here beside the core's codes.
  errorCodes: { not_text: "The file is not text, so it has no lines to count." },
  async execute(_toolCallId, { path }, signal, _onUpdate, ctx) {
    const file = await ctx.workspace.resolve(path, "read", { signal });
    const bytes = await ctx.operations.readFile(file.absolute, { signal });
    if (bytes.includes(0))
      throw new ToolError("not_text", `${file.display} is not a text file. Count TODOs in text files only.`);
    const text = new TextDecoder().decode(bytes);
    const count = text.split("\n").filter((line) => line.includes("TODO")).length;
    return { content: [{ type: "text", text: `${file.display}: ${count} TODO lines` }], details: { count } };
  },
});

const INTERNAL_HOST = /\b[\w-]+(\.[\w-]+)*\.corp\.internal\b/g;

export const teamRules = defineExtension({
  name: "team-rules",
  setup(api) {
    api.registerTool(todoCount);

    // Guard: vendored code is not ours to change. The path is resolved the way the tools resolve
    // it, so `./vendor/x` and `src/../vendor/x` are caught too.
    api.on("tool_call", async (event, ctx) => {
      if (event.toolName !== "write" && event.toolName !== "edit") return undefined;
      if (typeof event.input.path !== "string") return undefined;
      const file = await ctx.workspace.resolve(event.input.path, "write").catch(() => undefined);
      if (!file?.display.startsWith("vendor/")) return undefined;
      return { block: true, reason: `Blocked: ${file.display} is vendored. Change our code instead.` };
    });

    // Middleware: internal host names never reach the model, whichever tool found them.
    api.on("tool_result", (event) => ({
      content: event.content.map((part) =>
        part.type === "text" ? { ...part, text: part.text.replace(INTERNAL_HOST, "[internal host]") } : part,
      ),
    }));
  },
});
// #endregion extension

const cwd = await mkdtemp(join(tmpdir(), "tackle-extension-"));
await mkdir(join(cwd, "vendor"));
await writeFile(join(cwd, "vendor", "lib.js"), "export const lib = 1;\n");
await writeFile(join(cwd, "notes.md"), "TODO: move db.eu.corp.internal to the new cluster\nTODO: docs\n");

// #region host
const context = createLocalToolContext({ cwd });
const runner = new ExtensionRunner({
  context: () => context,
  builtinTools: [createToolDefinition("read"), createToolDefinition("write")],
});
await runner.load([teamRules]);

const agent = new Agent({
  ...createFauxModel([
    {
      content: [
        fauxToolCall("todo_count", { path: "notes.md" }),
        fauxToolCall("read", { path: "notes.md" }),
        fauxToolCall("write", { path: "vendor/lib.js", content: "patched\n" }),
      ],
    },
    "Two TODOs; the vendored file stays as it is.",
  ]),
  tools: runner.tools(),
  systemPrompt: runner.systemPrompt("You are a coding agent."),
  beforeToolCall: runner.beforeToolCall,
  afterToolCall: runner.afterToolCall,
});
agent.subscribe((event) => void runner.emit(event));
// #endregion host

try {
  await agent.prompt("How much is left to do in notes.md? Also patch vendor/lib.js.");
  for (const message of agent.state.messages) {
    if (message.role !== "toolResult") continue;
    const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    console.log(`--- ${message.toolName}${message.isError ? " (refused)" : ""}\n${text.trim()}`);
  }
} finally {
  await context.dispose();
  await rm(cwd, { recursive: true, force: true });
}
