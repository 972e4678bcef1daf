// End to end over real HTTP: the real @ai-sdk/openai and @ai-sdk/anthropic clients reach a
// local server (src/testing/provider-server.ts, which records where each wire-format sample
// comes from: the providers' public API docs) through `baseURL`, and aiSdkModel drives the loop.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { Agent, type AssistantMessage } from "@tackle/agent-core";
import { toJsonSchema } from "@tackle/extensions";
import { afterEach, describe, expect, it } from "vitest";
import { aiSdkModel, IMAGES_FOLLOW_TEXT } from "../src/index.js";
import {
  anthropicHang,
  anthropicReply,
  anthropicStreamError,
  openaiError,
  openaiReply,
  type ProviderServer,
  type ScriptedTurn,
  startProviderServer,
} from "../src/testing/index.js";
import { demoWorkspace, type Workspace } from "./support/workspace.js";

// biome-ignore lint/suspicious/noTemplateCurlyInString: the demo source's own template literal
const BUGGY_LINE = "return `Hello, ${who}`;";
// biome-ignore lint/suspicious/noTemplateCurlyInString: the fixed line of the demo source
const FIXED_LINE = "return `Hello, ${who}!`;";

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The demo fix as a model would script it: grep, read, edit, run the test, report. */
const DEMO_FIX: ScriptedTurn[] = [
  {
    text: "I'll find greet.",
    calls: [{ id: "call_1", name: "grep", args: { pattern: "function greet", path: "." } }],
  },
  { calls: [{ id: "call_2", name: "read", args: { path: "src/greet.mjs" } }] },
  {
    text: "The greeting lacks its exclamation mark.",
    calls: [
      {
        id: "call_3",
        name: "edit",
        args: { path: "src/greet.mjs", edits: [{ oldText: BUGGY_LINE, newText: FIXED_LINE }] },
      },
    ],
  },
  { calls: [{ id: "call_4", name: "bash", args: { command: "node test.mjs", timeout: 60 } }] },
  { text: "Fixed: greet now ends with an exclamation mark and the test passes." },
];

let server: ProviderServer | undefined;
let workspace: Workspace | undefined;
afterEach(async () => {
  await server?.close();
  await workspace?.dispose();
  server = undefined;
  workspace = undefined;
});

function lastAssistant(agent: Agent): AssistantMessage {
  return agent.state.messages.filter((m) => m.role === "assistant").at(-1) as AssistantMessage;
}

describe("OpenAI Chat Completions over HTTP (@ai-sdk/openai)", () => {
  it("fixes the demo workspace; tools, tool calls and tool results cross the wire in OpenAI's shapes", async () => {
    workspace = await demoWorkspace();
    server = await startProviderServer(DEMO_FIX.map((turn) => openaiReply(turn)));
    const openai = createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` });
    const agent = new Agent({
      ...aiSdkModel(openai.chat("gpt-4.1")),
      systemPrompt: "You fix code.",
      tools: workspace.tools,
    });
    await agent.prompt("The greeting test fails. Fix it.");

    expect(await readFile(path.join(workspace.dir, "src/greet.mjs"), "utf8")).toContain(FIXED_LINE);
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "stop",
      usage: { inputTokens: 900, outputTokens: 30 },
    });
    const [first, , , , last] = server.requests;
    expect(first!.path).toBe("/v1/chat/completions");
    expect(first!.headers.authorization).toBe("Bearer sk-test");
    expect(first!.body.stream).toBe(true);
    expect(first!.body.messages[0]).toEqual({ role: "system", content: "You fix code." });
    const grep = first!.body.tools.find(
      (tool: { function: { name: string } }) => tool.function.name === "grep",
    );
    expect(grep.function.parameters).toEqual(toJsonSchema(workspace.tool("grep").parameters));
    const toolMessages = last!.body.messages.filter((m: { role: string }) => m.role === "tool");
    expect(toolMessages.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual([
      "call_1",
      "call_2",
      "call_3",
      "call_4",
    ]);
    expect(toolMessages[3].content).toContain("greet: 1 test passed");
    const calls = last!.body.messages.filter((m: { tool_calls?: unknown }) => m.tool_calls);
    expect(JSON.parse(calls[2].tool_calls[0].function.arguments)).toEqual(DEMO_FIX[2]!.calls![0]!.args);
  });

  it("retries a rate-limited request (429) and then succeeds", async () => {
    workspace = await demoWorkspace();
    server = await startProviderServer([
      openaiError(429, "Rate limit reached for gpt-4.1. Please try again in 20ms.", "rate_limit_exceeded"),
      openaiReply({ text: "Hello after the retry." }),
    ]);
    const openai = createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` });
    const agent = new Agent({
      ...aiSdkModel(openai.chat("gpt-4.1"), { maxRetries: 2 }),
      tools: workspace.tools,
    });
    await agent.prompt("hi");
    expect(server.requests).toHaveLength(2);
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "Hello after the retry." }],
    });
  });

  it("a refused key is stopReason error with OpenAI's own message, not retried", async () => {
    workspace = await demoWorkspace();
    server = await startProviderServer([openaiError(401, "Incorrect API key provided: sk-bad.")]);
    const openai = createOpenAI({ apiKey: "sk-bad", baseURL: `${server.url}/v1` });
    const agent = new Agent({ ...aiSdkModel(openai.chat("gpt-4.1")), tools: workspace.tools });
    await agent.prompt("hi");
    expect(server.requests).toHaveLength(1);
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "error",
      errorMessage: "Incorrect API key provided: sk-bad. (HTTP 401)",
    });
  });

  it("an image a tool returns goes in a user message after the text-only tool message", async () => {
    workspace = await demoWorkspace();
    await writeFile(path.join(workspace.dir, "dot.png"), PNG);
    server = await startProviderServer([
      openaiReply({ calls: [{ id: "call_1", name: "read", args: { path: "dot.png" } }] }),
      openaiReply({ text: "A dot." }),
    ]);
    const openai = createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` });
    const agent = new Agent({ ...aiSdkModel(openai.chat("gpt-4.1")), tools: workspace.tools });
    await agent.prompt("what is dot.png?");
    const [tool, user] = server.requests[1]!.body.messages.slice(-2);
    expect(tool).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(tool.content).toContain(IMAGES_FOLLOW_TEXT);
    expect(tool.content).not.toContain(PNG.toString("base64"));
    expect(user).toEqual({
      role: "user",
      content: [
        { type: "text", text: "Images of tool result call_1:" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
      ],
    });
  });

  it("a reply cut by max tokens (finish_reason length) runs none of its calls", async () => {
    workspace = await demoWorkspace();
    server = await startProviderServer([
      openaiReply({
        calls: [{ id: "call_1", name: "write", args: { path: "x.txt", content: "cut" } }],
        finish: "length",
      }),
      openaiReply({ text: "I will split it." }),
    ]);
    const openai = createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` });
    const agent = new Agent({
      ...aiSdkModel(openai.chat("gpt-4.1"), { maxOutputTokens: 10 }),
      tools: workspace.tools,
    });
    await agent.prompt("write");
    expect(server.requests[0]!.body.max_tokens).toBe(10);
    expect(agent.state.messages.find((m) => m.role === "assistant")).toMatchObject({ stopReason: "length" });
    const result = server.requests[1]!.body.messages.find((m: { role: string }) => m.role === "tool");
    // @ai-sdk/openai 4 sends an error-text result as `{"error": text}`.
    expect(JSON.parse(result.content)).toEqual({ error: expect.stringContaining('stopReason "length"') });
  });
});

describe("Anthropic Messages over HTTP (@ai-sdk/anthropic)", () => {
  it("fixes the demo workspace; tool_use with input_json_delta in, tool_result out", async () => {
    workspace = await demoWorkspace();
    server = await startProviderServer(DEMO_FIX.map((turn) => anthropicReply(turn)));
    const anthropic = createAnthropic({ apiKey: "sk-ant-test", baseURL: `${server.url}/v1` });
    const agent = new Agent({
      ...aiSdkModel(anthropic("claude-sonnet-4-5")),
      systemPrompt: "You fix code.",
      tools: workspace.tools,
    });
    await agent.prompt("The greeting test fails. Fix it.");

    expect(await readFile(path.join(workspace.dir, "src/greet.mjs"), "utf8")).toContain(FIXED_LINE);
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "stop",
      usage: { inputTokens: 1450, outputTokens: 42, cacheReadTokens: 600 },
    });
    const [first, , , , last] = server.requests;
    expect(first!.path).toBe("/v1/messages");
    expect(first!.headers["x-api-key"]).toBe("sk-ant-test");
    expect(first!.body.system).toEqual([{ type: "text", text: "You fix code." }]);
    const read = first!.body.tools.find((tool: { name: string }) => tool.name === "read");
    expect(read.input_schema).toEqual(toJsonSchema(workspace.tool("read").parameters));
    const results = last!.body.messages
      .flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
      .filter((block: { type: string }) => block.type === "tool_result");
    expect(results.map((r: { tool_use_id: string }) => r.tool_use_id)).toEqual([
      "call_1",
      "call_2",
      "call_3",
      "call_4",
    ]);
    expect(JSON.stringify(results[3].content)).toContain("greet: 1 test passed");
  });

  it("thinking streams as a thinking block and goes back with its signature", async () => {
    workspace = await demoWorkspace();
    server = await startProviderServer([
      anthropicReply({
        thinking: { text: "The test wants a bang.", signature: "EqQBCgIYAhIM" },
        calls: [{ id: "toolu_1", name: "ls", args: {} }],
      }),
      anthropicReply({ text: "Listed." }),
    ]);
    const anthropic = createAnthropic({ apiKey: "k", baseURL: `${server.url}/v1` });
    const model = aiSdkModel(anthropic("claude-sonnet-4-5"), {
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 2048 } } },
    });
    const agent = new Agent({ ...model, tools: workspace.tools });
    await agent.prompt("look");
    expect(server.requests[0]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    const first = agent.state.messages.find((m) => m.role === "assistant") as AssistantMessage;
    expect(first.content[0]).toMatchObject({ type: "thinking", thinking: "The test wants a bang." });
    const sentBack = server.requests[1]!.body.messages.find((m: { role: string }) => m.role === "assistant");
    expect(sentBack.content[0]).toEqual({
      type: "thinking",
      thinking: "The test wants a bang.",
      signature: "EqQBCgIYAhIM",
    });
  });

  it("an image a tool returns reaches Anthropic as an image block inside tool_result", async () => {
    workspace = await demoWorkspace();
    await writeFile(path.join(workspace.dir, "dot.png"), PNG);
    server = await startProviderServer([
      anthropicReply({ calls: [{ id: "toolu_1", name: "read", args: { path: "dot.png" } }] }),
      anthropicReply({ text: "A dot." }),
    ]);
    const anthropic = createAnthropic({ apiKey: "k", baseURL: `${server.url}/v1` });
    const agent = new Agent({ ...aiSdkModel(anthropic("claude-sonnet-4-5")), tools: workspace.tools });
    await agent.prompt("what is dot.png?");
    const result = server.requests[1]!.body.messages.at(-1).content[0];
    expect(result.type).toBe("tool_result");
    expect(result.content).toContainEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") },
    });
  });

  it("an error event mid-stream ends the run with the provider's message", async () => {
    workspace = await demoWorkspace();
    server = await startProviderServer([
      anthropicStreamError({ text: "Let me look" }, "overloaded_error", "Overloaded"),
    ]);
    const anthropic = createAnthropic({ apiKey: "k", baseURL: `${server.url}/v1` });
    const agent = new Agent({ ...aiSdkModel(anthropic("claude-sonnet-4-5")), tools: workspace.tools });
    await agent.prompt("hi");
    expect(lastAssistant(agent)).toMatchObject({
      stopReason: "error",
      errorMessage: expect.stringContaining("Overloaded"),
      content: [{ type: "text", text: "Let me look" }],
    });
  });

  it("abort closes the streaming HTTP request", async () => {
    workspace = await demoWorkspace();
    server = await startProviderServer([anthropicHang({ text: "Thinking about it" })]);
    const anthropic = createAnthropic({ apiKey: "k", baseURL: `${server.url}/v1` });
    const agent = new Agent({ ...aiSdkModel(anthropic("claude-sonnet-4-5")), tools: workspace.tools });
    agent.subscribe((event) => {
      if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") agent.abort();
    });
    await agent.prompt("hi");
    await server.clientLeft;
    expect(lastAssistant(agent)).toMatchObject({ stopReason: "aborted" });
  });
});
