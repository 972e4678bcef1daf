// agent-core alone: a hand-written tool in the agent loop with the faux model.
import { Type } from "@sinclair/typebox";
import { Agent, type AgentTool, invokeTool } from "@tackle/agent-core";
import { createFauxModel, fauxToolCall } from "@tackle/agent-core/testing";

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

// Arguments as a model sends them are `unknown` to the compiler; "2" is repaired to 2 at run time.
const fromModel: unknown = JSON.parse('{ "a": "2", "b": 3 }');
const direct = await invokeTool(add, fromModel);
const agent = new Agent({
  ...createFauxModel([{ content: [fauxToolCall("add", { a: 20, b: 22 })] }, "The sum is 42."]),
  tools: [add],
});
const events: string[] = [];
agent.subscribe((event) => events.push(event.type));
await agent.prompt("What is 20 + 22?");
const last = agent.state.messages.at(-1);
const answer =
  last?.role === "assistant" ? last.content.map((c) => (c.type === "text" ? c.text : "")).join("") : "";
console.log(
  JSON.stringify({ direct: direct.details, answer, toolRan: events.includes("tool_execution_end") }),
);
