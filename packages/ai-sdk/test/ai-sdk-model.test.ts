import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { APICallError, type LanguageModelV2StreamPart } from "@ai-sdk/provider";
import { Type } from "@sinclair/typebox";
import {
  Agent,
  type AgentEvent,
  type AgentTool,
  type AssistantMessage,
  LENGTH_STOP_MESSAGE,
} from "@tackle/agent-core";
import { toJsonSchema } from "@tackle/extensions";
import { convertArrayToReadableStream, MockProviderV3 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { aiSdkModel, toStrictJsonSchema, UnsupportedModelError } from "../src/index.js";
import { finish, HANG, reasoning, scriptedModel, text, toolCall, usage } from "./support/mock-model.js";
import { demoWorkspace, type Workspace } from "./support/workspace.js";

// biome-ignore lint/suspicious/noTemplateCurlyInString: the demo source's own template literal
const BUGGY_LINE = "return `Hello, ${who}`;";
// biome-ignore lint/suspicious/noTemplateCurlyInString: the fixed line of the demo source
const FIXED_LINE = "return `Hello, ${who}!`;";

let workspace: Workspace | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

async function open(): Promise<Workspace> {
  workspace = await demoWorkspace();
  return workspace;
}

/** The tool results of the last tool message of a prompt, as the provider gets them. */
function lastToolOutputs(prompt: LanguageModelV3Prompt) {
  const message = prompt.filter((m) => m.role === "tool").at(-1);
  if (message === undefined) throw new Error("no tool message in the prompt");
  return message.content.flatMap((part) => (part.type === "tool-result" ? [part] : []));
}

function outputText(output: { type: string; value?: unknown }): string {
  return typeof output.value === "string" ? output.value : JSON.stringify(output.value);
}

function lastAssistant(agent: Agent): AssistantMessage {
  const message = agent.state.messages.filter((m) => m.role === "assistant").at(-1);
  if (message === undefined || message.role !== "assistant") throw new Error("no assistant message");
  return message;
}

describe("aiSdkModel drives the agent loop", () => {
  it("fixes the demo workspace: grep -> read -> edit -> bash, each result reaching the model", async () => {
    const ws = await open();
    const script = scriptedModel([
      [
        ...text("I'll find greet."),
        ...toolCall("c1", "grep", { pattern: "function greet", path: "." }),
        finish("tool-calls"),
      ],
      (call) => {
        expect(outputText(lastToolOutputs(call.prompt)[0]!.output)).toContain("src/greet.mjs");
        return [...toolCall("c2", "read", { path: "src/greet.mjs" }), finish("tool-calls")];
      },
      (call) => {
        expect(outputText(lastToolOutputs(call.prompt)[0]!.output)).toContain(BUGGY_LINE);
        const edits = [{ oldText: BUGGY_LINE, newText: FIXED_LINE }];
        return [...toolCall("c3", "edit", { path: "src/greet.mjs", edits }), finish("tool-calls")];
      },
      [...toolCall("c4", "bash", { command: "node test.mjs", timeout: 60 }), finish("tool-calls")],
      (call) => {
        const [result] = lastToolOutputs(call.prompt);
        expect(result!.output.type).toBe("text");
        expect(outputText(result!.output)).toContain("greet: 1 test passed");
        return [...text("Fixed: the test passes."), finish("stop", usage(1200, 40))];
      },
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    await agent.prompt("The greeting test fails. Fix it.");
    expect(await readFile(path.join(ws.dir, "src/greet.mjs"), "utf8")).toContain(FIXED_LINE);
    const last = lastAssistant(agent);
    expect(last.stopReason).toBe("stop");
    expect(last.content).toEqual([{ type: "text", text: "Fixed: the test passes." }]);
    expect(last.usage).toEqual({ inputTokens: 1200, outputTokens: 40, totalTokens: 1240 });
    expect(script.remaining).toBe(0);
  });

  it("sends the system prompt, the tools as JSON Schema, provider options and call settings", async () => {
    const ws = await open();
    const script = scriptedModel([[...text("ok"), finish()]]);
    const providerOptions = { anthropic: { cacheControl: { type: "ephemeral" } } };
    const model = aiSdkModel(script.model, { providerOptions, maxOutputTokens: 321, temperature: 0.2 });
    expect(model.model).toEqual({ id: "mock-model", provider: "mock-provider" });
    const agent = new Agent({ ...model, systemPrompt: "You fix code.", tools: ws.tools });
    await agent.prompt("hi");
    const call = script.calls[0]!;
    expect(call.prompt[0]).toEqual({ role: "system", content: "You fix code." });
    expect(call.prompt[1]).toMatchObject({ role: "user", content: [{ type: "text", text: "hi" }] });
    expect(call.providerOptions).toEqual(providerOptions);
    expect(call.maxOutputTokens).toBe(321);
    expect(call.temperature).toBe(0.2);
    const read = call.tools?.find((tool) => tool.name === "read");
    expect(read).toMatchObject({ type: "function", description: ws.tool("read").description });
    expect(read && "inputSchema" in read ? read.inputSchema : undefined).toEqual(
      toJsonSchema(ws.tool("read").parameters),
    );
    expect(call.tools?.map((tool) => tool.name).sort()).toEqual(ws.tools.map((tool) => tool.name).sort());
  });

  it("streams text and tool-call deltas as assistant-message events", async () => {
    const ws = await open();
    const script = scriptedModel([
      [...text("Looking around.", "t1", 5), ...toolCall("c1", "ls", { path: "." }, 4), finish("tool-calls")],
      [...text("Done."), finish()],
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    const updates: string[] = [];
    agent.subscribe((event: AgentEvent) => {
      if (event.type === "message_update") updates.push(event.assistantMessageEvent.type);
    });
    await agent.prompt("look");
    expect(updates.slice(0, 8)).toEqual([
      "text_start",
      "text_delta",
      "text_delta",
      "text_delta",
      "text_end",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
    ]);
    expect(updates).toContain("toolcall_end");
    const first = agent.state.messages.find((m) => m.role === "assistant") as AssistantMessage;
    expect(first.content).toEqual([
      { type: "text", text: "Looking around." },
      { type: "toolCall", id: "c1", name: "ls", arguments: { path: "." } },
    ]);
    expect(first.stopReason).toBe("toolUse");
  });

  it("runs parallel tool calls of one reply together and returns their results in the model's order", async () => {
    const ws = await open();
    // "gate" finishes only after "fast" did, so the batch can only end if the calls run together.
    let openGate: () => void = () => {};
    const gateOpened = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const gate: AgentTool = {
      name: "gate",
      label: "Gate",
      description: "Waits for the other call.",
      parameters: Type.Object({}),
      async execute() {
        await gateOpened;
        return { content: [{ type: "text", text: "gate passed" }], details: {} };
      },
    };
    const script = scriptedModel([
      [
        ...toolCall("gate", "gate", {}),
        ...toolCall("fast", "read", { path: "README.md" }),
        finish("tool-calls"),
      ],
      (call) => {
        const results = lastToolOutputs(call.prompt);
        expect(results.map((r) => r.toolCallId)).toEqual(["gate", "fast"]);
        expect(outputText(results[0]!.output)).toBe("gate passed");
        expect(outputText(results[1]!.output)).toContain("demo workspace");
        return [...text("both done"), finish()];
      },
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: [...ws.tools, gate] });
    const ends: string[] = [];
    agent.subscribe((event) => {
      if (event.type !== "tool_execution_end") return;
      ends.push(event.toolCallId);
      if (event.toolCallId === "fast") openGate();
    });
    await agent.prompt("both");
    expect(ends).toEqual(["fast", "gate"]);
    expect(lastAssistant(agent).stopReason).toBe("stop");
  });

  it("a reply cut by the token limit is stopReason length: its calls do not run and the model is told why", async () => {
    const ws = await open();
    const script = scriptedModel([
      [...toolCall("cut", "write", { path: "new.txt", content: "half" }), finish("length")],
      (call) => {
        const [result] = lastToolOutputs(call.prompt);
        expect(result!.output).toEqual({ type: "error-text", value: LENGTH_STOP_MESSAGE });
        return [...text("I will split it."), finish()];
      },
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model, { maxOutputTokens: 16 }), tools: ws.tools });
    await agent.prompt("write");
    const cut = agent.state.messages.find((m) => m.role === "assistant") as AssistantMessage;
    expect(cut.stopReason).toBe("length");
    await expect(readFile(path.join(ws.dir, "new.txt"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a provider error mid-stream ends the run with stopReason error, the provider's message and the text so far", async () => {
    const ws = await open();
    const script = scriptedModel([
      [...text("Let me"), { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }],
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    await agent.prompt("go");
    const last = lastAssistant(agent);
    expect(last.stopReason).toBe("error");
    expect(last.errorMessage).toBe("Overloaded");
    expect(last.content).toEqual([{ type: "text", text: "Let me" }]);
    expect(agent.state.error).toBe("Overloaded");
  });

  it("a failing request (the provider throws before streaming) is stopReason error with its message", async () => {
    const ws = await open();
    const script = scriptedModel([
      () => {
        throw Object.assign(new Error("Incorrect API key provided"), { statusCode: 401 });
      },
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model, { maxRetries: 0 }), tools: ws.tools });
    await agent.prompt("go");
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "error",
      errorMessage: "Incorrect API key provided (HTTP 401)",
    });
  });

  it("abort mid-stream aborts the request and ends the run as aborted with the text so far", async () => {
    const ws = await open();
    const script = scriptedModel([[...text("Partial answer"), HANG]]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    agent.subscribe((event) => {
      if (event.type === "message_update" && event.assistantMessageEvent.type === "text_end") agent.abort();
    });
    await agent.prompt("go");
    const last = lastAssistant(agent);
    expect(last.stopReason).toBe("aborted");
    expect(last.content).toEqual([{ type: "text", text: "Partial answer" }]);
    expect(script.calls[0]!.abortSignal?.aborted).toBe(true);
  });

  it("abort mid-tool ends the running command's process and the run", async () => {
    const ws = await open();
    const pidFile = path.join(ws.dir, "pid.txt");
    const script = scriptedModel([
      [...toolCall("c1", "bash", { command: `echo $$ > ${pidFile}; exec sleep 30` }), finish("tool-calls")],
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    let pid = 0;
    agent.subscribe((event) => {
      if (event.type === "tool_execution_start") {
        void (async () => {
          pid = await eventually(async () => Number((await readFile(pidFile, "utf8")).trim()) || undefined);
          agent.abort();
        })();
      }
    });
    await agent.prompt("run it");
    const result = agent.state.messages.find((m) => m.role === "toolResult");
    expect(result).toMatchObject({ isError: true });
    expect(pid).toBeGreaterThan(0);
    await eventually(async () => (isAlive(pid) ? undefined : true));
    expect(script.remaining).toBe(0);
  });

  it("reasoning streams as thinking and goes back with the provider's signature", async () => {
    const ws = await open();
    const signature = { anthropic: { signature: "sig-123" } };
    const script = scriptedModel([
      [
        ...reasoning("The test wants a bang.", "r1", signature),
        ...toolCall("c1", "ls", {}),
        finish("tool-calls"),
      ],
      (call) => {
        const assistant = call.prompt.find((m) => m.role === "assistant");
        expect(assistant?.content[0]).toEqual({
          type: "reasoning",
          text: "The test wants a bang.",
          providerOptions: signature,
        });
        return [...text("ok"), finish()];
      },
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    await agent.prompt("think");
    const first = agent.state.messages.find((m) => m.role === "assistant") as AssistantMessage;
    expect(first.content[0]).toEqual({
      type: "thinking",
      thinking: "The test wants a bang.",
      providerMetadata: signature,
    });
  });

  it("reports usage with cache and reasoning tokens, and maps content-filter to an error", async () => {
    const ws = await open();
    const script = scriptedModel([
      [...text("no"), finish("content-filter", usage(100, 20, { cacheRead: 60, reasoning: 8 }))],
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    await agent.prompt("x");
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "error",
      errorMessage: "The provider's content filter stopped the reply.",
      usage: {
        inputTokens: 100,
        outputTokens: 20,
        cacheReadTokens: 60,
        reasoningTokens: 8,
        totalTokens: 120,
      },
    });
  });

  it("malformed arguments reach the tool's lenient step: repaired when possible, else a precise error", async () => {
    const ws = await open();
    const script = scriptedModel([
      [
        ...toolCall("fixable", "read", '{"path":"src/greet.mjs","limit":"2"}'),
        ...toolCall("broken", "read", '{"path": "src/gr'),
        finish("tool-calls"),
      ],
      (call) => {
        const [fixable, broken] = lastToolOutputs(call.prompt);
        expect(fixable!.output.type).toBe("text");
        expect(outputText(fixable!.output)).toContain("Builds the greeting");
        expect(broken!.output.type).toBe("error-text");
        expect(outputText(broken!.output)).toContain("Invalid arguments for read");
        return [...text("ok"), finish()];
      },
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    await agent.prompt("read");
    expect(script.remaining).toBe(0);
  });

  it("images: a user image goes as a file part, an image a tool read comes back as image content", async () => {
    const ws = await open();
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    await writeFile(path.join(ws.dir, "dot.png"), png);
    const script = scriptedModel([
      (call) => {
        expect(call.prompt[0]).toMatchObject({
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "file", mediaType: "image/png" },
          ],
        });
        return [...toolCall("img", "read", { path: "dot.png" }), finish("tool-calls")];
      },
      (call) => {
        const [result] = lastToolOutputs(call.prompt);
        expect(result!.output.type).toBe("content");
        const value = (result!.output as { value: { type: string; data?: string; mediaType?: string }[] })
          .value;
        expect(value).toContainEqual({
          type: "image-data",
          data: png.toString("base64"),
          mediaType: "image/png",
        });
        return [...text("a dot"), finish()];
      },
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    await agent.prompt({
      role: "user",
      content: [
        { type: "text", text: "what is this?" },
        { type: "image", data: png.toString("base64"), mimeType: "image/png" },
      ],
      timestamp: Date.now(),
    });
    expect(lastAssistant(agent).content).toEqual([{ type: "text", text: "a dot" }]);
  });

  it("calls the provider ran itself are not run by the loop", async () => {
    const ws = await open();
    const script = scriptedModel([
      [
        { type: "tool-call", toolCallId: "srv", toolName: "web_search", input: "{}", providerExecuted: true },
        { type: "tool-result", toolCallId: "srv", toolName: "web_search", result: { hits: 0 } },
        ...text("Nothing found."),
        finish("stop"),
      ],
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    await agent.prompt("search");
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "Nothing found." }],
    });
    expect(agent.state.messages.some((m) => m.role === "toolResult")).toBe(false);
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

/** Polls `probe` until it gives a value (no fixed sleeps: each poll waits one short tick). */
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

describe("aiSdkModel talks to the provider model", () => {
  it("retries a request the provider failed temporarily, waiting as asked, then streams", async () => {
    const ws = await open();
    const rateLimited = () =>
      new APICallError({
        message: "Rate limit reached",
        url: "http://127.0.0.1/v1/chat/completions",
        requestBodyValues: {},
        statusCode: 429,
        responseHeaders: { "retry-after-ms": "5" },
        isRetryable: true,
      });
    const script = scriptedModel([
      () => {
        throw rateLimited();
      },
      [...text("after the retry"), finish()],
    ]);
    const agent = new Agent({ ...aiSdkModel(script.model), tools: ws.tools });
    await agent.prompt("hi");
    expect(script.calls).toHaveLength(2);
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "after the retry" }],
    });

    const failing = scriptedModel(
      [0, 1, 2].map(() => () => {
        throw rateLimited();
      }),
    );
    const gaveUp = new Agent({ ...aiSdkModel(failing.model, { maxRetries: 2 }), tools: ws.tools });
    await gaveUp.prompt("hi");
    expect(failing.calls).toHaveLength(3);
    expect(lastAssistant(gaveUp)).toMatchObject({
      stopReason: "error",
      errorMessage: "Rate limit reached (HTTP 429) (gave up after 3 attempts)",
    });
  });

  it("sends strict tool schemas, the tool choice and no tools when there are none", async () => {
    const ws = await open();
    const script = scriptedModel([
      [...text("a"), finish()],
      [...text("b"), finish()],
    ]);
    const model = aiSdkModel(script.model, { strictTools: true, toolChoice: "required" });
    await new Agent({ ...model, tools: ws.tools }).prompt("x");
    const read = script.calls[0]!.tools?.find((tool) => tool.name === "read");
    expect(read).toMatchObject({ strict: true, inputSchema: toStrictJsonSchema(ws.tool("read").parameters) });
    expect(script.calls[0]!.toolChoice).toEqual({ type: "required" });
    await new Agent({ ...model, tools: [] }).prompt("y");
    expect(script.calls[1]!.tools).toBeUndefined();
    expect(script.calls[1]!.toolChoice).toBeUndefined();
  });

  it("speaks specification v2 (AI SDK 5 providers): string finish reasons, flat usage, media images", async () => {
    const ws = await open();
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    await writeFile(path.join(ws.dir, "dot.png"), Buffer.from(png, "base64"));
    const prompts: unknown[][] = [];
    const turns: LanguageModelV2StreamPart[][] = [
      [
        { type: "tool-call", toolCallId: "c1", toolName: "read", input: '{"path":"dot.png"}' },
        {
          type: "finish",
          finishReason: "tool-calls",
          usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
        },
      ],
      [
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "a dot" },
        { type: "text-end", id: "t" },
        {
          type: "finish",
          finishReason: "unknown",
          usage: {
            inputTokens: 9,
            outputTokens: 2,
            totalTokens: 11,
            cachedInputTokens: 4,
            reasoningTokens: 1,
          },
        },
      ],
    ];
    const v2 = {
      specificationVersion: "v2" as const,
      provider: "legacy.chat",
      modelId: "old-model",
      supportedUrls: {},
      doGenerate: async () => {
        throw new Error("not used");
      },
      doStream: async (options: { prompt: unknown[] }) => {
        prompts.push(options.prompt);
        const parts = turns[prompts.length - 1]!;
        return { stream: convertArrayToReadableStream(parts) };
      },
    };
    const agent = new Agent({ ...aiSdkModel(v2 as never, { imagesInToolResults: true }), tools: ws.tools });
    await agent.prompt("what is dot.png?");
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "a dot" }],
      usage: { inputTokens: 9, outputTokens: 2, cacheReadTokens: 4, reasoningTokens: 1, totalTokens: 11 },
    });
    const toolMessage = prompts[1]!.find((m) => (m as { role: string }).role === "tool") as {
      content: { output: { value: unknown[] } }[];
    };
    expect(toolMessage.content[0]!.output.value).toContainEqual({
      type: "media",
      data: png,
      mediaType: "image/png",
    });
  });

  it("refuses a model of a specification it does not speak, saying what to do", () => {
    const future = { specificationVersion: "v9", provider: "future", modelId: "x" };
    expect(() => aiSdkModel(future as never)).toThrow(UnsupportedModelError);
    expect(() => aiSdkModel(future as never)).toThrow(/speaks v2, v3 and v4.*Update the provider package/);
  });

  it("a model id string goes to the global default provider, as in the AI SDK", async () => {
    const ws = await open();
    const script = scriptedModel([[...text("via the default provider"), finish()]], {
      modelId: "vendor/model",
    });
    const global = globalThis as { AI_SDK_DEFAULT_PROVIDER?: unknown };
    global.AI_SDK_DEFAULT_PROVIDER = new MockProviderV3({ languageModels: { "vendor/model": script.model } });
    try {
      const model = aiSdkModel("vendor/model");
      expect(model.model).toEqual({ id: "vendor/model", provider: "mock-provider" });
      const agent = new Agent({ ...model, tools: ws.tools });
      await agent.prompt("hi");
      expect(lastAssistant(agent).content).toEqual([{ type: "text", text: "via the default provider" }]);
    } finally {
      delete global.AI_SDK_DEFAULT_PROVIDER;
    }
  });
});
