/**
 * Tackle's session where the AI SDK puts a sandbox: `experimental_sandbox` of `generateText`,
 * reaching a tool's `execute` as the SDK hands it over, with Tackle's policy in force there.
 */
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalOperations } from "@tackle/operations-local";
import { generateText, jsonSchema, stepCountIs, type Tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createOperationsSandboxSession } from "../src/index.js";

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-ai-sandbox-sdk-")));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A model that calls `tool` with each input in turn, one step each, then answers. */
function callsInTurn(tool: string, inputs: unknown[]) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const input = inputs[step++];
      const usage = {
        inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 1, text: 1, reasoning: 0 },
      };
      return input === undefined
        ? {
            content: [{ type: "text", text: "done" }],
            finishReason: { unified: "stop", raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [
              { type: "tool-call", toolCallId: `c${step}`, toolName: tool, input: JSON.stringify(input) },
            ],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          };
    },
  });
}

/** A tool written against the AI SDK's interface only: it writes a file and runs a command. */
const shellNote: Tool = {
  description: "Writes a note, then runs a command in the sandbox.",
  inputSchema: jsonSchema<{ path: string; command: string }>({
    type: "object",
    properties: { path: { type: "string" }, command: { type: "string" } },
    required: ["path", "command"],
  }),
  execute: async (input, { experimental_sandbox: sandbox }) => {
    const { path, command } = input as { path: string; command: string };
    if (!sandbox) throw new Error("no sandbox");
    try {
      await sandbox.writeTextFile({ path, content: "note\n" });
    } catch (error) {
      return { refused: (error as { code?: string }).code };
    }
    return sandbox.run({ command });
  },
};

it("an AI SDK tool writes and runs through experimental_sandbox on Tackle's session, inside the workspace only", async () => {
  const sandbox = createOperationsSandboxSession({ operations: createLocalOperations(), cwd: dir });
  const result = await generateText({
    model: callsInTurn("shellNote", [
      { path: "notes/a.txt", command: "cat notes/a.txt; pwd" },
      { path: "../outside.txt", command: "true" },
    ]),
    tools: { shellNote },
    experimental_sandbox: sandbox,
    prompt: "note it",
    stopWhen: stepCountIs(4),
  });
  const outputs = result.steps.flatMap((step) => step.toolResults.map((toolResult) => toolResult.output));
  expect(outputs[0]).toMatchObject({ exitCode: 0, stdout: `note\n${dir}\n` });
  expect(outputs[1]).toEqual({ refused: "outside_workspace" });
  expect(await readFile(join(dir, "notes", "a.txt"), "utf8")).toBe("note\n");
  await expect(readFile(join(dir, "..", "outside.txt"))).rejects.toMatchObject({ code: "ENOENT" });
});
