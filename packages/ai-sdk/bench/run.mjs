// Overhead of the AI SDK bridge, each against its baseline measured in the same run:
// 1. per turn: the Tackle Agent driving an AI SDK model through aiSdkModel, against the same
//    conversation run by the AI SDK's own streamText loop with toAISDKTools (same mock model,
//    same tool calls, same no-op tool); target within 1.1x.
// 2. per call: a tool called through toAISDKTools' execute, against invokeTool directly.
// Run after `pnpm --filter @tackle/ai-sdk build`:  pnpm --filter @tackle/ai-sdk bench
import { performance } from "node:perf_hooks";
import { Type } from "@sinclair/typebox";
import { Agent, invokeTool } from "@tackle/agent-core";
import { stepCountIs, streamText } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { aiSdkModel, toAISDKTools } from "../dist/index.js";

const TURNS = 20; // tool-call turns per conversation, plus one closing text turn
const RUNS = 30;
const CALLS = 50_000;

const noop = {
  name: "noop",
  label: "No-op",
  description: "Does nothing.",
  parameters: Type.Object({ n: Type.Integer() }),
  async execute(_id, params) {
    return { content: [{ type: "text", text: `ok ${params.n}` }], details: {} };
  },
};

const usage = { inputTokens: { total: 10, noCache: 10 }, outputTokens: { total: 5, text: 5 } };

/** A mock model that calls noop TURNS times, then answers. */
function scriptedModel() {
  let turn = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      turn += 1;
      const parts =
        turn <= TURNS
          ? [
              { type: "tool-input-start", id: `c${turn}`, toolName: "noop" },
              { type: "tool-input-delta", id: `c${turn}`, delta: `{"n":${turn}}` },
              { type: "tool-input-end", id: `c${turn}` },
              { type: "tool-call", toolCallId: `c${turn}`, toolName: "noop", input: `{"n":${turn}}` },
              { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
            ]
          : [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "done" },
              { type: "text-end", id: "t" },
              { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
            ];
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

async function conversationWithAgent() {
  const agent = new Agent({ ...aiSdkModel(scriptedModel()), tools: [noop] });
  await agent.prompt("go");
  if (agent.state.messages.length !== 2 + TURNS * 2)
    throw new Error("agent conversation is not the expected length");
}

async function conversationWithStreamText() {
  const result = streamText({
    model: scriptedModel(),
    tools: toAISDKTools([noop]),
    prompt: "go",
    stopWhen: stepCountIs(TURNS + 1),
  });
  for await (const _part of result.fullStream);
  if ((await result.steps).length !== TURNS + 1)
    throw new Error("streamText conversation is not the expected length");
}

async function timeRuns(run) {
  const start = performance.now();
  for (let i = 0; i < RUNS; i++) await run();
  return (performance.now() - start) / (RUNS * (TURNS + 1));
}

async function timeInvokeTool() {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await invokeTool(noop, { n: i }, { toolCallId: `c${i}` });
  return ((performance.now() - start) * 1000) / CALLS;
}

async function timeSdkExecute() {
  const { noop: tool } = toAISDKTools([noop]);
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await tool.execute({ n: i }, { toolCallId: `c${i}`, messages: [] });
  return ((performance.now() - start) * 1000) / CALLS;
}

// Warm up both sides (JIT, module caches), then measure alternately so drift hits both.
for (let i = 0; i < 3; i++) {
  await conversationWithAgent();
  await conversationWithStreamText();
}
await timeInvokeTool();
await timeSdkExecute();

const agentTurns = [];
const sdkTurns = [];
const invokes = [];
const sdkCalls = [];
for (let round = 0; round < 5; round++) {
  sdkTurns.push(await timeRuns(conversationWithStreamText));
  agentTurns.push(await timeRuns(conversationWithAgent));
}
for (let round = 0; round < 5; round++) {
  invokes.push(await timeInvokeTool());
  sdkCalls.push(await timeSdkExecute());
}
const best = (values) => Math.min(...values);
const sdkTurn = best(sdkTurns);
const agentTurn = best(agentTurns);
const invoke = best(invokes);
const sdkCall = best(sdkCalls);

console.log(`@tackle/ai-sdk bench (node ${process.version}); best of 5 rounds`);
console.log(
  `per turn (${RUNS} conversations x ${TURNS + 1} turns, one no-op tool call per turn, mock model):`,
);
console.log(`  streamText + toAISDKTools (baseline)  ${(sdkTurn * 1000).toFixed(0).padStart(6)} us/turn`);
console.log(
  `  Agent + aiSdkModel                     ${(agentTurn * 1000).toFixed(0).padStart(6)} us/turn  ${(agentTurn / sdkTurn).toFixed(2)}x baseline (target <= 1.10x)`,
);
console.log(`per tool call (${CALLS.toLocaleString("en-US")} no-op calls):`);
console.log(`  invokeTool (baseline)                  ${invoke.toFixed(2).padStart(6)} us/call`);
console.log(
  `  toAISDKTools execute                   ${sdkCall.toFixed(2).padStart(6)} us/call  ${(sdkCall / invoke).toFixed(2)}x baseline`,
);
