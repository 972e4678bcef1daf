// The SDK's own loop (`generateText`, which asks without streaming) with the Tackle tools, on the
// real @ai-sdk/openai and @ai-sdk/anthropic clients over the local wire-format server.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type LanguageModel, stepCountIs } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { toAISDKTools } from "../src/index.js";
import {
  anthropicReply,
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

const FIX: ScriptedTurn[] = [
  { calls: [{ id: "call_1", name: "read", args: { path: "src/greet.mjs" } }] },
  {
    calls: [
      {
        id: "call_2",
        name: "edit",
        args: { path: "src/greet.mjs", edits: [{ oldText: BUGGY_LINE, newText: FIXED_LINE }] },
      },
    ],
  },
  { calls: [{ id: "call_3", name: "bash", args: { command: "node test.mjs", timeout: 60 } }] },
  { text: "Fixed." },
];

let server: ProviderServer | undefined;
let workspace: Workspace | undefined;
afterEach(async () => {
  await server?.close();
  await workspace?.dispose();
  server = undefined;
  workspace = undefined;
});

async function fixWith(model: (url: string) => LanguageModel, reply: (turn: ScriptedTurn) => unknown) {
  workspace = await demoWorkspace();
  server = await startProviderServer(FIX.map((turn) => reply(turn) as ReturnType<typeof openaiReply>));
  const result = await generateText({
    model: model(server.url),
    tools: toAISDKTools(workspace.tools),
    prompt: "The greeting test fails. Fix it.",
    stopWhen: stepCountIs(10),
  });
  return result;
}

describe("generateText over HTTP (requests without stream: true)", () => {
  it("OpenAI Chat Completions: the demo fix; every request asked for one JSON body", async () => {
    const result = await fixWith(
      (url) => createOpenAI({ apiKey: "sk-test", baseURL: `${url}/v1` }).chat("gpt-4.1"),
      (turn) => openaiReply(turn),
    );
    expect(result.text).toBe("Fixed.");
    expect(server!.requests.map((r) => r.body.stream ?? false)).toEqual([false, false, false, false]);
    expect(await readFile(path.join(workspace!.dir, "src/greet.mjs"), "utf8")).toContain(FIXED_LINE);
    const bash = result.steps[2]!.toolResults[0]!;
    expect(bash.output).toMatchObject({ isError: false });
    // The tool results went back in OpenAI's shape: a `tool` message per call.
    const toolMessages = server!.requests[3]!.body.messages.filter(
      (m: { role: string }) => m.role === "tool",
    );
    expect(toolMessages.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual([
      "call_1",
      "call_2",
      "call_3",
    ]);
  });

  it("Anthropic Messages: the demo fix; tool_use in, tool_result out", async () => {
    const result = await fixWith(
      (url) => createAnthropic({ apiKey: "sk-ant-test", baseURL: `${url}/v1` })("claude-sonnet-4-5"),
      (turn) => anthropicReply(turn),
    );
    expect(result.text).toBe("Fixed.");
    expect(server!.requests.every((r) => r.body.stream !== true)).toBe(true);
    expect(await readFile(path.join(workspace!.dir, "src/greet.mjs"), "utf8")).toContain(FIXED_LINE);
    const last = server!.requests[3]!.body.messages.at(-1);
    expect(last.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "call_3" });
  });

  it("a scripted reply still streams when the request asks to stream", async () => {
    workspace = await demoWorkspace();
    server = await startProviderServer([openaiReply({ text: "streamed" })]);
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ stream: true }),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toContain("data: [DONE]");
  });
});
