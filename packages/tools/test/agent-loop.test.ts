/**
 * Whole-loop behaviour: the agent loop with the faux model driving the real tools on real files.
 */
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  agentLoop,
  type Message,
  type ModelContext,
  type ToolResultMessage,
  userMessage,
} from "@tackle/agent-core";
import { createFauxModel, type FauxReply, fauxToolCall } from "@tackle/agent-core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAllTools } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-loop-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(script: FauxReply[]): Promise<ToolResultMessage[]> {
  const faux = createFauxModel(script);
  const context = createLocalToolContext({ cwd: dir });
  const tools = Object.values(createAllTools({ context }));
  const stream = agentLoop([userMessage("go")], { messages: [], tools }, faux);
  for await (const _event of stream) {
    // drain
  }
  const messages: Message[] = await stream.result();
  await context.dispose();
  return messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

const textOf = (message: ToolResultMessage) =>
  message.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

/** The text of the last tool result the model was sent. */
function lastResult(context: ModelContext): string {
  const results = context.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
  return textOf(results[results.length - 1]!);
}

describe("agent loop with the file tools", () => {
  it("grep, then read, then edit: each step uses what the previous one returned", async () => {
    await writeFile(join(dir, "config.ts"), "export const retries = 3;\nexport const timeout = 10;\n");
    await writeFile(join(dir, "other.ts"), "nothing here\n");
    const results = await run([
      { content: [fauxToolCall("grep", { pattern: "timeout" })] },
      (context) => {
        const file = /^([\w.]+):\d+:/m.exec(lastResult(context))![1]!;
        return { content: [fauxToolCall("read", { path: file })] };
      },
      (context) => {
        const line = lastResult(context)
          .split("\n")
          .find((l) => l.includes("timeout"))!
          .replace(/^\s*\d+\t/, "");
        return {
          content: [
            fauxToolCall("edit", {
              path: "config.ts",
              edits: [{ oldText: line, newText: line.replace("10", "30") }],
            }),
          ],
        };
      },
      "done",
    ]);
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([
      ["grep", false],
      ["read", false],
      ["edit", false],
    ]);
    expect(await readFile(join(dir, "config.ts"), "utf8")).toBe(
      "export const retries = 3;\nexport const timeout = 30;\n",
    );
  });

  it("two parallel edits of one file in one batch both land", async () => {
    await writeFile(join(dir, "list.txt"), "alpha\nbeta\ngamma\n");
    const results = await run([
      { content: [fauxToolCall("read", { path: "list.txt" })] },
      {
        content: [
          fauxToolCall("edit", { path: "list.txt", edits: [{ oldText: "alpha", newText: "ALPHA" }] }),
          fauxToolCall("edit", { path: "list.txt", edits: [{ oldText: "gamma", newText: "GAMMA" }] }),
        ],
      },
      "done",
    ]);
    expect(results.map((r) => r.isError)).toEqual([false, false, false]);
    expect(await readFile(join(dir, "list.txt"), "utf8")).toBe("ALPHA\nbeta\nGAMMA\n");
  });

  it("an edit after an outside change is refused until the model reads the file again", async () => {
    await writeFile(join(dir, "notes.md"), "draft one\n");
    const results = await run([
      { content: [fauxToolCall("read", { path: "notes.md" })] },
      async () => {
        // Someone else changes the file between the model's read and its edit.
        await writeFile(join(dir, "notes.md"), "draft one\nadded by a person\n");
        return {
          content: [
            fauxToolCall("edit", { path: "notes.md", edits: [{ oldText: "draft one", newText: "final" }] }),
          ],
        };
      },
      { content: [fauxToolCall("read", { path: "notes.md" })] },
      {
        content: [
          fauxToolCall("edit", { path: "notes.md", edits: [{ oldText: "draft one", newText: "final" }] }),
        ],
      },
      "done",
    ]);
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([
      ["read", false],
      ["edit", true],
      ["read", false],
      ["edit", false],
    ]);
    expect(textOf(results[1]!)).toBe("notes.md changed since you read it; read it again before editing.");
    expect(await readFile(join(dir, "notes.md"), "utf8")).toBe("final\nadded by a person\n");
  });
});
