import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { LanguageModelV3CallOptions, LanguageModelV3Content } from "@ai-sdk/provider";
import type { AnyAgentTool, ToolOutcome } from "@tackle/agent-core";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { toAISDKTools, toolsContextFor } from "../src/index.js";
import { usage } from "./support/mock-model.js";
import { demoWorkspace, type Workspace } from "./support/workspace.js";

const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const workspace of workspaces.splice(0)) await workspace.dispose();
});

/** A model whose first step calls `read` on `who.txt`, then answers. */
function readsWhoThenAnswers() {
  const prompts: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options);
      const first = prompts.length === 1;
      const content: LanguageModelV3Content[] = first
        ? [
            {
              type: "tool-call",
              toolCallId: "c1",
              toolName: "read",
              input: JSON.stringify({ path: "who.txt" }),
            },
          ]
        : [{ type: "text", text: "done" }];
      return {
        content,
        finishReason: { unified: first ? "tool-calls" : "stop", raw: undefined },
        usage: usage(1, 1),
        warnings: [],
      };
    },
  });
  return model;
}

/** A workspace whose who.txt names its owner. */
async function workspaceOf(user: string): Promise<Workspace> {
  const workspace = await demoWorkspace();
  workspaces.push(workspace);
  await writeFile(path.join(workspace.dir, "who.txt"), `workspace of ${user}\n`);
  return workspace;
}

const readOutput = (result: { steps: readonly { toolResults: readonly { output: unknown }[] }[] }) =>
  result.steps[0]?.toolResults[0]?.output as ToolOutcome;

describe("the AI SDK's typed tool context picks the Tackle tools of each call", () => {
  it("one ToolSet, two users: each call runs in the workspace its context names", async () => {
    const byUser: Record<string, AnyAgentTool[]> = {
      ada: (await workspaceOf("ada")).tools,
      bob: (await workspaceOf("bob")).tools,
    };
    const template = byUser.ada ?? [];
    const tools = toAISDKTools(template, {
      toolsFor: (context: { user: string }) => byUser[context.user] ?? [],
    });
    for (const user of ["ada", "bob"]) {
      const result = await generateText({
        model: readsWhoThenAnswers(),
        tools,
        toolsContext: toolsContextFor(tools, { user }),
        prompt: "who?",
        stopWhen: stepCountIs(3),
      });
      const output = readOutput(result);
      expect(output.isError).toBe(false);
      expect(output.content[0]).toMatchObject({
        type: "text",
        text: expect.stringContaining(`workspace of ${user}`),
      });
    }
    // The context is typed from toolsFor: a context of another shape does not compile.
    // @ts-expect-error `name` is not `user`
    toolsContextFor(tools, { name: "ada" });
    // Made from a by-name object, the set names its tools: generateText then requires a context
    // for each of them.
    const byName = toAISDKTools(
      { read: template.find((tool) => tool.name === "read") as AnyAgentTool },
      { toolsFor: (context: { user: string }) => byUser[context.user] ?? [] },
    );
    const named: { read: { user: string } } = toolsContextFor(byName, { user: "ada" });
    expect(named).toEqual({ read: { user: "ada" } });
    await expect(
      // @ts-expect-error every tool of byName takes a context, so toolsContext is required
      generateText({ model: readsWhoThenAnswers(), tools: byName, prompt: "who?" }),
    ).resolves.toBeDefined();
  });

  it("a context whose set lacks the tool answers tool_not_found; one that throws answers blocked", async () => {
    const template = (await workspaceOf("ada")).tools;
    const readOnly = template.filter((tool) => tool.name === "ls");
    const cases: [(context: { user: string }) => readonly AnyAgentTool[], string][] = [
      [() => readOnly, "tool_not_found"],
      [
        (context) => {
          throw new Error(`no session for ${context.user}`);
        },
        "blocked",
      ],
    ];
    for (const [toolsFor, code] of cases) {
      const tools = toAISDKTools(template, { toolsFor });
      const result = await generateText({
        model: readsWhoThenAnswers(),
        tools,
        toolsContext: toolsContextFor(tools, { user: "eve" }),
        prompt: "who?",
        stopWhen: stepCountIs(3),
      });
      expect(readOutput(result)).toMatchObject({ isError: true, errorCode: code });
    }
  });
});
