// Type check of @tackle/ai-sdk's published types against ai 7 (types only, nothing runs).
import { anthropic } from "@ai-sdk/anthropic";
import { Type } from "@sinclair/typebox";
import { Agent, type AgentTool } from "@tackle/agent-core";
import { aiSdkModel, toAISDKTools, toModelMessages, toToolResultOutput } from "@tackle/ai-sdk";
import { generateText, type ModelMessage, stepCountIs, streamText } from "ai";

const params = Type.Object({ text: Type.String() });
const echo: AgentTool<typeof params> = {
  name: "echo",
  label: "Echo",
  description: "Echo text.",
  parameters: params,
  async execute(_id, params) {
    return { content: [{ type: "text", text: String(params.text) }], details: {} };
  },
};

export async function run(): Promise<void> {
  const agent = new Agent({
    ...aiSdkModel(anthropic("claude-sonnet-4-5"), { maxRetries: 1 }),
    tools: [echo],
  });
  await agent.prompt("hi");
  const fromString = aiSdkModel("anthropic/claude-sonnet-4-5");
  void fromString;
  const tools = toAISDKTools([echo]);
  const result = await generateText({
    model: anthropic("claude-sonnet-4-5"),
    tools,
    prompt: "x",
    stopWhen: stepCountIs(3),
  });
  void result.text;
  const stream = streamText({ model: anthropic("claude-sonnet-4-5"), tools, prompt: "x" });
  for await (const _part of stream.fullStream);
  const messages: ModelMessage[] = toModelMessages(agent.state.messages);
  await generateText({ model: anthropic("claude-sonnet-4-5"), messages });
  void toToolResultOutput([{ type: "text", text: "x" }], false);
}
