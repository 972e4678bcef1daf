// @tackle/ai-sdk with ai 7: the Tackle loop on the real @ai-sdk/anthropic client, and a Tackle tool
// inside the SDK's own generateText, both against the package's local wire-format server.
import { createAnthropic } from "@ai-sdk/anthropic";
import { Type } from "@sinclair/typebox";
import { Agent, type AgentTool } from "@tackle/agent-core";
import { aiSdkModel, toAISDKTools } from "@tackle/ai-sdk";
import { anthropicReply, startProviderServer } from "@tackle/ai-sdk/testing";
import { generateText, stepCountIs } from "ai";

const params = Type.Object({ a: Type.Number(), b: Type.Number() });
const add: AgentTool<typeof params, { sum: number }> = {
  name: "add",
  label: "Add",
  description: "Adds two numbers.",
  parameters: params,
  async execute(_id, { a, b }) {
    return { content: [{ type: "text", text: String(a + b) }], details: { sum: a + b } };
  },
};

const turns = () => [
  anthropicReply({ calls: [{ id: "toolu_1", name: "add", args: { a: 20, b: 22 } }] }),
  anthropicReply({ text: "The sum is 42." }),
];
const server = await startProviderServer([...turns(), ...turns()]);
try {
  const anthropic = createAnthropic({ apiKey: "sk-ant-test", baseURL: `${server.url}/v1` });
  const agent = new Agent({ ...aiSdkModel(anthropic("claude-sonnet-4-5")), tools: [add] });
  await agent.prompt("What is 20 + 22?");
  const last = agent.state.messages.at(-1);
  const answer =
    last?.role === "assistant" ? last.content.map((c) => (c.type === "text" ? c.text : "")).join("") : "";
  const result = await generateText({
    model: anthropic("claude-sonnet-4-5"),
    tools: toAISDKTools([add], { details: "none" }),
    prompt: "What is 20 + 22?",
    stopWhen: stepCountIs(3),
  });
  console.log(JSON.stringify({ answer, sdk: result.text, steps: result.steps.length }));
} finally {
  await server.close();
}
