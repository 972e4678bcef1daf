// Cost of the agent loop per tool call, with no-op tools and the faux model, against calling the
// no-op execute directly (the raw baseline, same run). Rounds alternate; medians are reported.
// - loop-abort: 1000 calls in one assistant message, with an AbortSignal (what a host passes):
//   target <= 10 us per call, and no MaxListenersExceededWarning (counted, must be 0).
// - loop-100, loop-1: 10,000 calls, 100 or 1 per message, without a signal.
// - invoke: invokeTool alone (normalise + validate + execute).
// Run after `pnpm --filter @tackle/agent-core build`:  pnpm --filter @tackle/agent-core bench
// (--json for JSON lines; AGENT_BENCH_RUNS changes the rounds, default 7).
import { performance } from "node:perf_hooks";
import { Type } from "@sinclair/typebox";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";
import { agentLoop, createFauxModel, fauxToolCall, invokeTool, userMessage } from "../dist/index.js";

const CALLS = 10_000;
const BATCH = 1000;
const RUNS = Number(process.env.AGENT_BENCH_RUNS ?? 7);

const report = createBenchReport(import.meta.url, "loop");
let listenerWarnings = 0;
process.on("warning", (warning) => {
  if (warning.name === "MaxListenersExceededWarning") listenerWarnings++;
});

const noop = {
  name: "noop",
  label: "No-op",
  description: "Does nothing.",
  parameters: Type.Object({ n: Type.Integer(), tag: Type.Optional(Type.String()) }),
  async execute(_id, params) {
    return { content: [{ type: "text", text: "ok" }], details: params };
  },
};

async function timeRaw(calls) {
  const start = performance.now();
  for (let i = 0; i < calls; i++) await noop.execute(`c${i}`, { n: i }, undefined, undefined);
  return performance.now() - start;
}

async function timeInvoke() {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await invokeTool(noop, { n: String(i), extra: true });
  return performance.now() - start;
}

/** `calls` calls through the loop, `perTurn` in each assistant message; `signal` passed to the run. */
async function timeLoop(calls, perTurn, signal) {
  const script = [];
  for (let turn = 0; turn < calls / perTurn; turn++) {
    const turnCalls = [];
    for (let i = 0; i < perTurn; i++) turnCalls.push(fauxToolCall("noop", { n: turn * perTurn + i }));
    script.push({ content: turnCalls });
  }
  script.push("done");
  const faux = createFauxModel(script, { chunkSize: 1_000_000, recordContexts: false });
  const start = performance.now();
  const stream = agentLoop([userMessage("go")], { messages: [], tools: [noop] }, faux, signal);
  let ended = 0;
  for await (const event of stream) if (event.type === "tool_execution_end") ended++;
  const elapsed = performance.now() - start;
  if (ended !== calls) throw new Error(`expected ${calls} tool calls, saw ${ended}`);
  return elapsed;
}

const cases = {
  raw: () => timeRaw(CALLS),
  rawBatch: () => timeRaw(BATCH),
  invoke: timeInvoke,
  loopAbort: () => timeLoop(BATCH, BATCH, new AbortController().signal),
  loop100: () => timeLoop(CALLS, 100),
  loop1: () => timeLoop(CALLS, 1),
};
// Warm up the JIT so the first measurement is not penalised.
for (const run of Object.values(cases)) await run();
listenerWarnings = 0;
const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < RUNS; round++) {
  for (const [name, run] of Object.entries(cases)) samples[name].push(await run());
}
const us = (ms, calls) => (ms * 1000) / calls;
const perCall = (name, calls) => us(median(samples[name]), calls);
const rawPerCall = perCall("raw", CALLS);
const base = { stat: "median", rounds: RUNS, metric: "per-call", unit: "us" };
report.measure({
  ...base,
  case: "loop-abort",
  value: perCall("loopAbort", BATCH),
  baseline: { name: "raw execute()", value: perCall("rawBatch", BATCH) },
  target: { op: "<=", value: 10, of: "value" },
  params: { calls: BATCH, perMessage: BATCH, signal: true },
});
report.measure({
  case: "loop-abort",
  metric: "max-listener-warnings",
  unit: "count",
  value: listenerWarnings,
  target: { op: "<=", value: 0, of: "value" },
  params: { calls: BATCH, perMessage: BATCH, signal: true },
});
const raw = { name: "raw execute()", value: rawPerCall };
report.measure({
  ...base,
  case: "invoke",
  value: perCall("invoke", CALLS),
  baseline: raw,
  params: { calls: CALLS },
});
report.measure({
  ...base,
  case: "loop",
  value: perCall("loop100", CALLS),
  baseline: raw,
  params: { calls: CALLS, perMessage: 100, signal: false },
});
report.measure({
  ...base,
  case: "loop",
  value: perCall("loop1", CALLS),
  baseline: raw,
  params: { calls: CALLS, perMessage: 1, signal: false },
});
if (listenerWarnings > 0) process.exitCode = 1;
