// A real model drives the loop: @tackle/ai-sdk runs Tackle's agent on any AI SDK model. Run it
// in a project with `OPENAI_API_KEY=... npx tsx real-model.ts "Where are the TODOs?"`
// (OPENAI_BASE_URL points it at any OpenAI-compatible server instead).
import { createOpenAI } from "@ai-sdk/openai";
import { Agent } from "@tackle/agent-core";
import { aiSdkModel } from "@tackle/ai-sdk";
import { createReadOnlyTools } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";

// #region agent
const baseURL = process.env.OPENAI_BASE_URL;
const openai = createOpenAI(baseURL ? { baseURL } : {}); // the key from OPENAI_API_KEY
const context = createLocalToolContext({ cwd: process.cwd() });
const agent = new Agent({
  ...aiSdkModel(openai.chat("gpt-4.1")),
  tools: Object.values(createReadOnlyTools({ context })), // read, grep, find, ls
  systemPrompt: "You are a coding agent. Answer from what the tools show.",
});
agent.subscribe((event) => {
  if (event.type === "tool_execution_start")
    console.log(`tool: ${event.toolName} ${JSON.stringify(event.args)}`);
  if (event.type === "tool_execution_end" && event.isError) console.log(`tool error: ${event.toolName}`);
});
// #endregion agent

try {
  await agent.prompt(process.argv[2] ?? "Where are the TODOs in this project?");
  const answer = agent.state.messages.at(-1);
  if (answer?.role === "assistant") {
    for (const part of answer.content) if (part.type === "text") console.log(`answer: ${part.text}`);
    if (answer.stopReason === "error") console.log(`stopped: ${answer.errorMessage}`);
  }
} finally {
  await context.dispose();
}
