import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AnyAgentTool,
  agentLoop,
  createFauxModel,
  type FauxReply,
  fauxToolCall,
  type ToolResultMessage,
  userMessage,
} from "@tackle/agent-core";
import { type AnyToolDefinition, wrapToolDefinition } from "@tackle/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import { createEditToolDefinition } from "../src/tools/edit.js";
import { createGrepToolDefinition } from "../src/tools/grep.js";
import { createReadToolDefinition } from "../src/tools/read.js";

let dir: string;
let tools: AnyAgentTool[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-edit-loop-"));
  const ctx = createToolContext({ cwd: dir });
  const definitions: AnyToolDefinition[] = [
    createReadToolDefinition(),
    createEditToolDefinition(),
    createGrepToolDefinition(),
  ];
  tools = definitions.map((definition) => wrapToolDefinition(definition, () => ctx));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the loop on a script and returns the tool results in order. */
async function runScript(script: FauxReply[]): Promise<ToolResultMessage[]> {
  const faux = createFauxModel(script);
  const run = agentLoop([userMessage("go")], { messages: [], tools }, faux);
  for await (const _event of run) {
    // drain
  }
  const messages = await run.result();
  return messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

const textOf = (result: ToolResultMessage) =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("");

describe("edit in the agent loop with the faux model", () => {
  it("greps, reads, then edits a file", async () => {
    await writeFile(join(dir, "app.ts"), "export const answer = 41; // TODO fix\n");
    const results = await runScript([
      { content: [fauxToolCall("grep", { pattern: "TODO", path: "." })] },
      { content: [fauxToolCall("read", { path: "app.ts" })] },
      {
        content: [
          fauxToolCall("edit", {
            path: "app.ts",
            edits: [
              { oldText: "export const answer = 41; // TODO fix", newText: "export const answer = 42;" },
            ],
          }),
        ],
      },
      "Fixed.",
    ]);
    expect(results.map((result) => result.isError)).toEqual([false, false, false]);
    expect(textOf(results[0] as ToolResultMessage)).toContain("app.ts");
    expect(await readFile(join(dir, "app.ts"), "utf8")).toBe("export const answer = 42;\n");
  });

  it("lands two parallel edits to one file from one assistant message", async () => {
    await writeFile(join(dir, "two.txt"), "first\nsecond\n");
    const results = await runScript([
      {
        content: [
          fauxToolCall("edit", { path: "two.txt", edits: [{ oldText: "first", newText: "1st" }] }),
          fauxToolCall("edit", { path: "two.txt", edits: [{ oldText: "second", newText: "2nd" }] }),
        ],
      },
      "Done.",
    ]);
    expect(results.map((result) => result.isError)).toEqual([false, false]);
    expect(await readFile(join(dir, "two.txt"), "utf8")).toBe("1st\n2nd\n");
  });

  it("refuses an edit after an outside change until the model reads the file again", async () => {
    const path = join(dir, "s.txt");
    await writeFile(path, "one\n");
    const edit = fauxToolCall("edit", { path: "s.txt", edits: [{ oldText: "one", newText: "1" }] });
    const results = await runScript([
      { content: [fauxToolCall("read", { path: "s.txt" })] },
      async () => {
        await writeFile(path, "one\ntwo\n");
        return { content: [edit] };
      },
      { content: [fauxToolCall("read", { path: "s.txt" })] },
      { content: [fauxToolCall("edit", { path: "s.txt", edits: [{ oldText: "one", newText: "1" }] })] },
      "Done.",
    ]);
    expect(results.map((result) => result.isError)).toEqual([false, true, false, false]);
    expect(textOf(results[1] as ToolResultMessage)).toContain("changed since you read it");
    expect(await readFile(path, "utf8")).toBe("1\ntwo\n");
  });
});
