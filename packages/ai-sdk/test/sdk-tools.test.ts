import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import { Type } from "@sinclair/typebox";
import type { AgentTool, ToolOutcome } from "@tackle/agent-core";
import { generateText, stepCountIs, streamText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toAISDKTools, toStrictJsonSchema } from "../src/index.js";
import { usage } from "./support/mock-model.js";
import { demoWorkspace, type Workspace } from "./support/workspace.js";

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

/** A generate-mode mock: the first step calls the given tools, the second answers with text. */
function callsThenText(calls: { id: string; name: string; input: unknown }[]) {
  const prompts: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options);
      const content: LanguageModelV3Content[] =
        prompts.length === 1
          ? calls.map((c) => ({
              type: "tool-call",
              toolCallId: c.id,
              toolName: c.name,
              input: typeof c.input === "string" ? c.input : JSON.stringify(c.input),
            }))
          : [{ type: "text", text: "done" }];
      return {
        content,
        finishReason: { unified: prompts.length === 1 ? "tool-calls" : "stop", raw: undefined },
        usage: usage(10, 2),
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

function toolOutputs(prompt: LanguageModelV3Prompt) {
  return prompt
    .flatMap((m) => (m.role === "tool" ? m.content : []))
    .flatMap((p) => (p.type === "tool-result" ? [p] : []));
}

describe("toAISDKTools inside the AI SDK's generateText", () => {
  it("runs a call through invokeTool (lenient arguments included); the result reaches the SDK and the model", async () => {
    workspace = await demoWorkspace();
    const { model, prompts } = callsThenText([
      { id: "c1", name: "read", input: { path: "src/greet.mjs", limit: "2" } },
    ]);
    const result = await generateText({
      model,
      tools: toAISDKTools(workspace.tools),
      prompt: "read it",
      stopWhen: stepCountIs(3),
    });
    const output = result.steps[0]!.toolResults[0]!.output as ToolOutcome;
    expect(output.isError).toBe(false);
    expect(output.content[0]).toMatchObject({
      type: "text",
      text: expect.stringContaining("Builds the greeting"),
    });
    const [sent] = toolOutputs(prompts[1]!.prompt);
    expect(sent!.output).toMatchObject({
      type: "text",
      value: expect.stringContaining("Builds the greeting"),
    });
    expect(result.text).toBe("done");
  });

  it("a failed call is error output the model reads, not a thrown error", async () => {
    workspace = await demoWorkspace();
    const { model, prompts } = callsThenText([{ id: "c1", name: "read", input: { path: "src/greeet.mjs" } }]);
    const result = await generateText({
      model,
      tools: toAISDKTools(workspace.tools),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
    const step = result.steps[0]!;
    expect(step.content.some((part) => part.type === "tool-error")).toBe(false);
    const output = step.toolResults[0]!.output as ToolOutcome;
    expect(output).toMatchObject({ isError: true, errorCode: "not_found" });
    const [sent] = toolOutputs(prompts[1]!.prompt);
    expect(sent!.output.type).toBe("error-text");
    expect((sent!.output as { value: string }).value).toContain("src/greet.mjs");
  });

  it("invalid arguments come back with the field, what was expected and how to fix it", async () => {
    workspace = await demoWorkspace();
    const { model, prompts } = callsThenText([{ id: "c1", name: "read", input: { limit: 5 } }]);
    await generateText({
      model,
      tools: toAISDKTools(workspace.tools),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
    const [sent] = toolOutputs(prompts[1]!.prompt);
    expect(sent!.output).toEqual({
      type: "error-text",
      value: expect.stringContaining("- path: expected string"),
    });
  });

  it("images reach the model as image parts through toModelOutput", async () => {
    workspace = await demoWorkspace();
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    await writeFile(path.join(workspace.dir, "dot.png"), png);
    const { model, prompts } = callsThenText([{ id: "c1", name: "read", input: { path: "dot.png" } }]);
    await generateText({
      model,
      tools: toAISDKTools(workspace.tools),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
    const [sent] = toolOutputs(prompts[1]!.prompt);
    expect(sent!.output.type).toBe("content");
    // toModelOutput writes an ai 7 `file` part; the SDK hands a spec-v3 model its `file-data` form.
    expect((sent!.output as { value: unknown[] }).value).toContainEqual(
      expect.objectContaining({ type: "file-data", data: png.toString("base64"), mediaType: "image/png" }),
    );
  });

  it("the SDK's abortSignal aborts a running tool and ends its process", async () => {
    workspace = await demoWorkspace();
    const pidFile = path.join(workspace.dir, "pid.txt");
    const { model } = callsThenText([
      { id: "c1", name: "bash", input: { command: `echo $$ > ${pidFile}; exec sleep 30` } },
    ]);
    const controller = new AbortController();
    const running = generateText({
      model,
      tools: toAISDKTools(workspace.tools),
      prompt: "x",
      stopWhen: stepCountIs(3),
      abortSignal: controller.signal,
    });
    const pid = await eventually(async () => Number((await readFile(pidFile, "utf8")).trim()) || undefined);
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: "AbortError" });
    await eventually(async () => (isAlive(pid) ? undefined : true));
  });

  it("hooks run as in the loop: beforeToolCall blocks or rewrites, afterToolCall patches", async () => {
    workspace = await demoWorkspace();
    const { model, prompts } = callsThenText([
      { id: "blocked", name: "read", input: { path: ".env" } },
      { id: "rewritten", name: "read", input: { path: "nope.txt" } },
    ]);
    const tools = toAISDKTools(workspace.tools, {
      beforeToolCall: ({ args, toolCall }) => {
        if (args.path === ".env") return { block: true, reason: "Secrets are off limits." };
        if (toolCall.id === "rewritten") return { args: { path: "README.md" } };
        return undefined;
      },
      afterToolCall: ({ result }) => ({ content: [...result.content, { type: "text", text: "[checked]" }] }),
    });
    await generateText({ model, tools, prompt: "x", stopWhen: stepCountIs(3) });
    const [blocked, rewritten] = toolOutputs(prompts[1]!.prompt);
    expect(blocked!.output).toEqual({ type: "error-text", value: "Secrets are off limits." });
    expect(rewritten!.output).toMatchObject({
      type: "text",
      value: expect.stringMatching(/demo workspace[\s\S]*\[checked\]$/),
    });
  });

  it("progress goes to onUpdate and, when asked, streams as preliminary tool results", async () => {
    const ticker: AgentTool = {
      name: "ticker",
      label: "Ticker",
      description: "Reports progress twice.",
      parameters: Type.Object({}),
      async execute(_id, _params, _signal, onUpdate) {
        onUpdate?.({ content: [{ type: "text", text: "1/2" }], details: {} });
        onUpdate?.({ content: [{ type: "text", text: "2/2" }], details: {} });
        return { content: [{ type: "text", text: "finished" }], details: {} };
      },
    };
    const updates: string[] = [];
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: "tool-call", toolCallId: "t1", toolName: "ticker", input: "{}" });
            controller.enqueue({
              type: "finish",
              finishReason: { unified: "tool-calls", raw: undefined },
              usage: usage(1, 1),
            });
            controller.close();
          },
        }),
      }),
    });
    const result = streamText({
      model,
      tools: toAISDKTools([ticker], {
        preliminaryResults: true,
        onUpdate: ({ toolCallId, partialResult }) =>
          updates.push(`${toolCallId}:${(partialResult.content[0] as { text: string }).text}`),
      }),
      prompt: "tick",
    });
    const seen: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type !== "tool-result") continue;
      const first = (part.output as ToolOutcome).content[0] as { text: string };
      seen.push(`${part.preliminary === true ? "preliminary" : "final"}:${first.text}`);
    }
    expect(updates).toEqual(["t1:1/2", "t1:2/2"]);
    // The SDK streams every value execute yields as preliminary, then the last one as final.
    expect(seen).toEqual(["preliminary:1/2", "preliminary:2/2", "preliminary:finished", "final:finished"]);
  });

  it("strict: schemas go in strict form, and the nulls the model sends for left-out fields are dropped", async () => {
    workspace = await demoWorkspace();
    const { model, prompts } = callsThenText([
      { id: "c1", name: "read", input: { path: "src/greet.mjs", offset: null, limit: null } },
    ]);
    const tools = toAISDKTools(workspace.tools, { strict: true });
    await generateText({ model, tools, prompt: "x", stopWhen: stepCountIs(3) });
    const sentTool = prompts[0]!.tools?.find((t) => t.name === "read");
    expect(sentTool).toMatchObject({
      strict: true,
      inputSchema: toStrictJsonSchema(workspace.tool("read").parameters),
    });
    const [sent] = toolOutputs(prompts[1]!.prompt);
    expect(sent!.output).toMatchObject({
      type: "text",
      value: expect.stringContaining("Builds the greeting"),
    });
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe().catch(() => undefined);
      if (value === undefined) throw new Error("condition not met in time");
      return value;
    },
    { timeout: timeoutMs, interval: 20 },
  );
}
