// The agent loop end to end, no API key needed: a scripted (faux) model asks for a real tool
// that lists a real directory, reads the result, and answers. Run after `pnpm build`:
//   node examples/loop-demo.mjs [directory]
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import { Agent, ToolError } from "@tackle/agent-core";
import { createFauxModel, fauxText, fauxThinking, fauxToolCall } from "@tackle/agent-core/testing";

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "..", "packages"));

/** A small real tool: lists a directory of this machine with node:fs. */
const listDirectory = {
  name: "ls",
  label: "List directory",
  description: "Lists the entries of a directory, directories first, with a trailing / on directories.",
  parameters: Type.Object({
    path: Type.String({ description: "Directory to list" }),
    limit: Type.Optional(Type.Integer({ minimum: 1, description: "Most entries to show (default 50)" })),
  }),
  async execute(_toolCallId, { path: dir, limit = 50 }) {
    const info = await stat(dir).catch(() => undefined);
    if (info === undefined) throw new ToolError("not_found", `Directory not found: ${dir}. Check the path.`);
    if (!info.isDirectory())
      throw new ToolError("not_directory", `Not a directory: ${dir}. Use read for files.`);
    const entries = await readdir(dir, { withFileTypes: true });
    const names = entries
      .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
    const shown = names.slice(0, limit);
    const more =
      names.length > shown.length ? `\n[${names.length - shown.length} more; raise limit to see them]` : "";
    return { content: [{ type: "text", text: shown.join("\n") + more }], details: { count: names.length } };
  },
};

const faux = createFauxModel(
  [
    {
      content: [
        fauxThinking("I should look at the directory before answering."),
        fauxText("Let me look."),
        // Real models often send numbers as strings: invokeTool repairs "20" to 20.
        fauxToolCall("ls", { path: root, limit: "20" }),
      ],
    },
    (context) => {
      const result = context.messages.at(-1);
      const lines = result.content[0].text.split("\n");
      return `${path.basename(root)} holds ${result.details.count} entries, for example ${lines.slice(0, 3).join(", ")}.`;
    },
  ],
  { chunkSize: 24 },
);

const agent = new Agent({ ...faux, tools: [listDirectory], systemPrompt: "You are a helpful coding agent." });

const show = (label, text) => console.log(`${label.padEnd(14)} ${text}`);
agent.subscribe((event) => {
  switch (event.type) {
    case "message_update": {
      const update = event.assistantMessageEvent;
      if (update.type === "thinking_delta") process.stdout.write(update.delta);
      if (update.type === "text_delta") process.stdout.write(update.delta);
      if (update.type === "thinking_end" || update.type === "text_end") process.stdout.write("\n");
      if (update.type === "thinking_start") process.stdout.write(`${"thinking".padEnd(14)} `);
      if (update.type === "text_start") process.stdout.write(`${"assistant".padEnd(14)} `);
      break;
    }
    case "message_end":
      if (event.message.role === "user") show("user", event.message.content);
      break;
    case "tool_execution_start":
      show("tool call", `${event.toolName} ${JSON.stringify(event.args)}`);
      break;
    case "tool_execution_end": {
      const text = event.result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      const preview = text.split("\n").slice(0, 5).join(", ");
      show(event.isError ? "tool error" : "tool result", `${preview}${text.includes("\n") ? ", ..." : ""}`);
      break;
    }
    default:
      if (event.type !== "message_start") show("event", event.type);
  }
});

await agent.prompt(`What is in ${root}?`);
if (agent.state.error !== undefined) {
  console.error(`Run failed: ${agent.state.error}`);
  process.exit(1);
}
const last = agent.state.messages.at(-1);
console.log(`\nFinal answer: ${last.content.find((block) => block.type === "text")?.text}`);
