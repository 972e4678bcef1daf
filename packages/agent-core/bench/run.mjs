// Cost of the agent loop per tool call, with no-op tools and the faux model, against calling the
// no-op execute directly (the raw baseline, same run). Rounds alternate; medians are reported.
// - loop-abort: 1000 calls in one assistant message, with an AbortSignal (what a host passes):
//   target <= 10 us per call, and no MaxListenersExceededWarning (counted, must be 0). The faux
//   model streams each reply in one event-loop turn (`deltasPerTurn: Infinity`, as a fast network
//   delivers many deltas per read), so the loop is measured, not a turn per delta.
// - loop-abort-streamed: the same with the faux model's default, a turn before each delta (what a
//   user of the faux model waits for: also target <= 10 us per call).
// Every case is timed three ways: wall clock ("per-call"); the CPU time of the main thread
// ("per-call-main-thread", from /proc/self/task/<pid>/schedstat, Linux only), which is what the
// wall clock would be on an idle machine (the loop never waits for I/O), without the wait for a
// CPU on a shared one; and the whole process's CPU time ("per-call-cpu", process.cpuUsage), which
// adds V8's garbage-collection helper threads (they run beside the main thread, so on an idle
// machine they do not lengthen a call). The target is judged on the wall clock, what a user waits
// for, with the faux model's streaming included (see docs/performance.md); the main thread's time
// says how much of it is the loop's own work on a loaded machine.
// - loop-100, loop-1: 10,000 calls, 100 or 1 per message, without a signal.
// - invoke: invokeTool alone (normalise + validate + execute).
// Run after `pnpm --filter @tackle/agent-core build`:  pnpm --filter @tackle/agent-core bench
// (--json for JSON lines; AGENT_BENCH_RUNS changes the rounds, default 15; AGENT_BENCH_WARMUP
// the warm-up rounds of every case, default 3).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { Type } from "@sinclair/typebox";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";
import { agentLoop, invokeTool, userMessage } from "../dist/index.js";
import { createFauxModel, fauxToolCall } from "../dist/testing/index.js";

const CALLS = 10_000;
const BATCH = 1000;
const RUNS = Number(process.env.AGENT_BENCH_RUNS ?? 15);
const WARMUP = Number(process.env.AGENT_BENCH_WARMUP ?? 3);

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

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

const settleCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * Milliseconds the main thread has run on a CPU (Linux), or undefined where that is not known.
 * The kernel adds a running thread's time to schedstat only at a scheduler tick (4 ms here) or
 * when the thread leaves the CPU, so a bare read lags by up to a tick, which is most of a
 * 1000-call message (5-10 ms). A 50 us sleep first (the thread leaves the CPU, no CPU time of its
 * own) makes the read exact: it then matches process.cpuUsage() on single-threaded work.
 */
function mainThreadMs() {
  try {
    Atomics.wait(settleCell, 0, 0, 0.05);
    return Number(readFileSync(SCHEDSTAT, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** Wall, main-thread CPU and process CPU milliseconds `fn` takes. */
async function clock(fn) {
  const thread = mainThreadMs();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const threadEnd = mainThreadMs();
  const main = thread === undefined || threadEnd === undefined ? Number.NaN : threadEnd - thread;
  return { wall, main, cpu: (used.user + used.system) / 1000 };
}

function timeRaw(calls) {
  return clock(async () => {
    for (let i = 0; i < calls; i++) await noop.execute(`c${i}`, { n: i }, undefined, undefined);
  });
}

function timeInvoke() {
  return clock(async () => {
    for (let i = 0; i < CALLS; i++) await invokeTool(noop, { n: String(i), extra: true });
  });
}

/**
 * `calls` calls through the loop, `perTurn` in each assistant message; `signal` passed to the
 * run; `deltasPerTurn` of the faux model (Infinity: each reply in one event-loop turn).
 */
async function timeLoop(calls, perTurn, signal, deltasPerTurn = Number.POSITIVE_INFINITY) {
  const script = [];
  for (let turn = 0; turn < calls / perTurn; turn++) {
    const turnCalls = [];
    for (let i = 0; i < perTurn; i++) turnCalls.push(fauxToolCall("noop", { n: turn * perTurn + i }));
    script.push({ content: turnCalls });
  }
  script.push("done");
  const faux = createFauxModel(script, { chunkSize: 1_000_000, recordContexts: false, deltasPerTurn });
  let ended = 0;
  const took = await clock(async () => {
    const stream = agentLoop([userMessage("go")], { messages: [], tools: [noop] }, faux, signal);
    for await (const event of stream) if (event.type === "tool_execution_end") ended++;
  });
  if (ended !== calls) throw new Error(`expected ${calls} tool calls, saw ${ended}`);
  return took;
}

const cases = {
  raw: () => timeRaw(CALLS),
  rawBatch: () => timeRaw(BATCH),
  invoke: timeInvoke,
  loopAbort: () => timeLoop(BATCH, BATCH, new AbortController().signal),
  loopAbortStreamed: () => timeLoop(BATCH, BATCH, new AbortController().signal, 1),
  loop100: () => timeLoop(CALLS, 100),
  loop1: () => timeLoop(CALLS, 1),
};
// Warm up the JIT: the loop's code settles after some 15 messages of 1000 calls (measured one by
// one: 30-50 ms for the first, 4-8 ms from about the fifteenth), and a host running an agent
// pays that once per process, not per call.
// What the first message of a process pays (information): measured once, before any warm-up.
const firstMessage = (await timeLoop(BATCH, BATCH, new AbortController().signal, 1)).wall;
for (let round = 0; round < WARMUP; round++) for (const run of Object.values(cases)) await run();
listenerWarnings = 0;
const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < RUNS; round++) {
  for (const [name, run] of Object.entries(cases)) samples[name].push(await run());
}
const us = (ms, calls) => (ms * 1000) / calls;
const perCall = (name, calls, kind) => us(median(samples[name].map((sample) => sample[kind])), calls);
const base = { stat: "median", rounds: RUNS, unit: "us" };
const METRICS = { wall: "per-call", main: "per-call-main-thread", cpu: "per-call-cpu" };
const record = (name, calls, params, options = {}) => {
  for (const [kind, metric] of Object.entries(METRICS)) {
    const value = perCall(name, calls, kind);
    if (Number.isNaN(value)) continue;
    const rawName = options.raw ?? "raw";
    report.measure({
      ...base,
      case: options.case,
      metric,
      value,
      baseline: { name: "raw execute()", value: perCall(rawName, rawName === "raw" ? CALLS : BATCH, kind) },
      ...(options.target && kind === "wall" ? { target: options.target } : {}),
      params,
    });
  }
};
const abortParams = { calls: BATCH, perMessage: BATCH, signal: true };
record("loopAbort", BATCH, abortParams, {
  case: "loop-abort",
  raw: "rawBatch",
  target: { op: "<=", value: 10, of: "value" },
});
record(
  "loopAbortStreamed",
  BATCH,
  { ...abortParams, deltasPerTurn: 1 },
  { case: "loop-abort-streamed", raw: "rawBatch", target: { op: "<=", value: 10, of: "value" } },
);
report.measure({
  case: "loop-abort-streamed-first-message",
  metric: "per-call",
  unit: "us",
  value: (firstMessage / BATCH) * 1000,
  stat: "once",
  params: { calls: BATCH, perMessage: BATCH, signal: true, deltasPerTurn: 1, jit: "cold" },
  label: "the process's first message of 1000 calls, before the JIT has seen the loop (information)",
});
report.measure({
  case: "loop-abort",
  metric: "max-listener-warnings",
  unit: "count",
  value: listenerWarnings,
  target: { op: "<=", value: 0, of: "value" },
  params: abortParams,
});
record("invoke", CALLS, { calls: CALLS }, { case: "invoke" });
record("loop100", CALLS, { calls: CALLS, perMessage: 100, signal: false }, { case: "loop" });
record("loop1", CALLS, { calls: CALLS, perMessage: 1, signal: false }, { case: "loop" });
if (listenerWarnings > 0) process.exitCode = 1;
