// A custom tool: counts lines, words and bytes of a file through the session's environment
// (ctx.operations), so it works the same locally, over SSH and in a container.
import { Type } from "@sinclair/typebox";
import { defineExtension, defineTool } from "@tackle/extensions";

export const countTool = defineTool({
  name: "count",
  label: "Count",
  description: "Counts lines, words and bytes of a text file. Use it to size a file before reading it.",
  promptSnippet: "Count lines, words and bytes of a file",
  promptGuidelines: ["Use count before reading a file you expect to be large."],
  annotations: { readOnlyHint: true, idempotentHint: true },
  parameters: Type.Object({
    path: Type.String({ description: "File to count, relative to the working directory" }),
  }),
  async execute(_toolCallId, { path }, signal, _onUpdate, ctx) {
    const file = await ctx.workspace.resolve(path, "read", { signal });
    const bytes = await ctx.operations.readFile(file.absolute, { signal });
    const text = new TextDecoder().decode(bytes);
    const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    const words = text.split(/\s+/).filter(Boolean).length;
    return {
      content: [
        { type: "text", text: `${file.display}: ${lines} lines, ${words} words, ${bytes.length} bytes` },
      ],
      details: { path: file.display, lines, words, bytes: bytes.length },
    };
  },
});

export default defineExtension({
  name: "count-tool",
  setup(api) {
    api.registerTool(countTool);
  },
});
