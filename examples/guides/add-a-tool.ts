// A ninth tool, written the way Tackle's own tools are: `wc` counts the lines, words and bytes of
// a text file, through whatever environment the call's context is on, with the path policy, an
// error that names the next step, and a hint that names only tools the model has. Run with
// `npx tsx add-a-tool.ts`.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { invokeTool, ToolError } from "@tackle/agent-core";
import { defineTool, wrapToolDefinition } from "@tackle/extensions";
import { createTools } from "@tackle/tools";
import { hintFor } from "@tackle/tools/context";
import { createLocalToolContext } from "@tackle/tools/local";

// #region tool
/** Largest file wc reads whole; the description and the error both say it from this constant. */
export const WC_MAX_BYTES = 1024 * 1024;

export const wc = defineTool({
  name: "wc",
  label: "Count",
  description: `Counts the lines, words and bytes of a text file (at most ${WC_MAX_BYTES} bytes). Use it to size a file before reading it.`,
  promptSnippet: "wc: count lines, words and bytes of a file",
  annotations: { readOnlyHint: true, idempotentHint: true },
  parameters: Type.Object({ path: Type.String({ description: "File, relative to the working directory" }) }),
  async execute(_toolCallId, { path }, signal, _onUpdate, ctx) {
    // The path policy every tool uses: `~`, `@`, file:// and links are handled, and a path
    // outside the workspace is refused with `outside_workspace` (recorded in the audit trail).
    const file = await ctx.workspace.resolve(path, "read", { signal });
    const stat = await ctx.operations.stat(file.real, { signal });
    if (stat.size > WC_MAX_BYTES) {
      // The next step names a tool only when the model has it in this call (ctx.call.toolNames).
      const next = hintFor(
        ctx,
        [["grep", "Count matches with grep instead."]],
        "Ask the user for a smaller file.",
      );
      throw new ToolError(
        "too_large",
        `${file.display} has ${stat.size} bytes, over ${WC_MAX_BYTES}. ${next}`,
      );
    }
    const text = new TextDecoder().decode(await ctx.operations.readFile(file.real, { signal }));
    const lines = text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    const words = text.split(/\s+/).filter(Boolean).length;
    const counts = { lines, words, bytes: stat.size };
    return {
      content: [
        { type: "text", text: `${file.display}: ${lines} lines, ${words} words, ${stat.size} bytes` },
      ],
      details: counts,
    };
  },
});
// #endregion tool

const cwd = await mkdtemp(join(tmpdir(), "tackle-add-a-tool-"));
await writeFile(join(cwd, "notes.md"), "ship the release\nwrite the changelog\n");
await writeFile(join(cwd, "big.log"), "x".repeat(WC_MAX_BYTES + 1));

// #region host
const context = createLocalToolContext({ cwd });
const names = ["read", "grep", "wc"];
const tools = {
  ...createTools({ context, names: ["read", "grep"] }),
  // The same session as the built-in tools; `toolNames` tells every call which tools it has.
  wc: wrapToolDefinition(wc, () => context, { toolNames: names }),
};
// #endregion host

try {
  for (const path of ["notes.md", "big.log", "../outside.txt"]) {
    const outcome = await invokeTool(tools.wc, { path });
    const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    console.log(`--- ${path}${outcome.isError ? ` (${outcome.errorCode})` : ""}\n${text}`);
  }
} finally {
  await context.dispose();
  await rm(cwd, { recursive: true, force: true });
}
