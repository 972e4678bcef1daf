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
    // Streamed: sizing a file must not load it whole (that is what count is for).
    const counts = { lines: 0, words: 0, bytes: 0 };
    const decoder = new TextDecoder();
    let inWord = false;
    let last = "";
    for await (const chunk of ctx.operations.openRead(file.absolute, { signal })) {
      counts.bytes += chunk.length;
      const text = decoder.decode(chunk, { stream: true });
      for (const char of text) {
        if (char === "\n") counts.lines++;
        const space = /\s/.test(char);
        if (!space && !inWord) counts.words++;
        inWord = !space;
      }
      if (text !== "") last = text;
    }
    // A last line without a newline still counts as a line.
    if (last !== "" && !last.endsWith("\n")) counts.lines++;
    const { lines, words, bytes } = counts;
    return {
      content: [{ type: "text", text: `${file.display}: ${lines} lines, ${words} words, ${bytes} bytes` }],
      details: { path: file.display, lines, words, bytes },
    };
  },
});

export default defineExtension({
  name: "count-tool",
  setup(api) {
    api.registerTool(countTool);
  },
});
