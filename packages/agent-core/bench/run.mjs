// Overhead of the agent loop per tool call: 10,000 no-op calls through agentLoop with the faux
// model, against calling the no-op execute directly (the raw baseline, same run).
// Run after `pnpm --filter @tackle/agent-core build`:  pnpm --filter @tackle/agent-core bench
import { performance } from "node:perf_hooks";
import { Type } from "@sinclair/typebox";
import { agentLoop, createFauxModel, fauxToolCall, invokeTool, userMessage } from "../dist/index.js";

const CALLS = 10_000;

const noop = {
  name: "noop",
  label: "No-op",
  description: "Does nothing.",
  parameters: Type.Object({ n: Type.Integer(), tag: Type.Optional(Type.String()) }),
  async execute(_id, params) {
    return { content: [{ type: "text", text: "ok" }], details: params };
  },
};

async function timeRaw() {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await noop.execute(`c${i}`, { n: i }, undefined, undefined);
  return performance.now() - start;
}

async function timeInvoke() {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await invokeTool(noop, { n: String(i), extra: true });
  return performance.now() - start;
}

/** `CALLS` calls through the loop, `perTurn` calls in each assistant message. */
async function timeLoop(perTurn) {
  const script = [];
  for (let turn = 0; turn < CALLS / perTurn; turn++) {
    const calls = [];
    for (let i = 0; i < perTurn; i++) calls.push(fauxToolCall("noop", { n: turn * perTurn + i }));
    script.push({ content: calls });
  }
  script.push("done");
  const faux = createFauxModel(script, { chunkSize: 1_000_000, recordContexts: false });
  const start = performance.now();
  const stream = agentLoop([userMessage("go")], { messages: [], tools: [noop] }, faux);
  let ended = 0;
  for await (const event of stream) if (event.type === "tool_execution_end") ended++;
  const elapsed = performance.now() - start;
  if (ended !== CALLS) throw new Error(`expected ${CALLS} tool calls, saw ${ended}`);
  return elapsed;
}

const line = (label, ms, baseline) => {
  const perCall = (ms * 1000) / CALLS;
  const ratio = baseline === undefined ? "" : `  ${(ms / baseline).toFixed(1)}x raw`;
  console.log(
    `${label.padEnd(34)} ${Math.round(CALLS / (ms / 1000))
      .toLocaleString("en-US")
      .padStart(10)} calls/s  ${perCall.toFixed(2).padStart(8)} us/call${ratio}`,
  );
};

// Warm up the JIT so the first measurement is not penalised.
await timeRaw();
await timeInvoke();
await timeLoop(100);

const raw = await timeRaw();
console.log(`${CALLS.toLocaleString("en-US")} no-op tool calls (node ${process.version})`);
line("raw execute()", raw);
line("invokeTool (normalise+validate)", await timeInvoke(), raw);
line("agentLoop, 100 calls per turn", await timeLoop(100), raw);
line("agentLoop, 1 call per turn", await timeLoop(1), raw);
