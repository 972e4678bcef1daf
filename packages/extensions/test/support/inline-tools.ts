import { execFile } from "node:child_process";
import { Type } from "@sinclair/typebox";
import { ToolError } from "@tackle/agent-core";
import type { ToolUI } from "../../src/context.js";
import { defineTool } from "../../src/define-tool.js";

/** A small real bash tool: runs the command with bash in ctx.cwd. (The real one lives in @tackle/tools.) */
export const bashDefinition = defineTool({
  name: "bash",
  label: "Bash",
  description: "Runs a bash command in the working directory.",
  annotations: { destructiveHint: true },
  parameters: Type.Object({ command: Type.String() }),
  execute(_id, { command }, signal, _onUpdate, ctx) {
    return new Promise<{ content: { type: "text"; text: string }[]; details: { code: number } }>(
      (resolve, reject) => {
        execFile("bash", ["-c", command], { cwd: ctx.cwd, signal }, (error, stdout, stderr) => {
          if (error && signal?.aborted) return reject(new ToolError("aborted", "Command aborted."));
          const output = `${stdout}${stderr}`;
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve({ content: [{ type: "text", text: `${output}[exit ${code}]` }], details: { code } });
        });
      },
    );
  },
});

/** A small real write tool through ctx.workspace and ctx.operations. */
export const writeDefinition = defineTool({
  name: "write",
  label: "Write",
  description: "Writes a file.",
  annotations: { destructiveHint: true },
  parameters: Type.Object({ path: Type.String(), content: Type.String() }),
  async execute(_id, { path, content }, signal, _onUpdate, ctx) {
    const file = await ctx.workspace.resolve(path, "write", { signal });
    await ctx.operations.writeFile(file.absolute, content);
    return { content: [{ type: "text", text: `Wrote ${file.display}.` }], details: { path: file.display } };
  },
});

/** A UI that answers confirmations from a script and records what it was asked. */
export function scriptedUI(answers: boolean[]): ToolUI & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async confirm(title, message) {
      asked.push(`${title} ${message}`);
      return answers.shift() ?? false;
    },
    notify() {},
  };
}
