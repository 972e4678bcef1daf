// Overhead of the extension layer per tool call: 10,000 no-op calls through a wrapped tool and
// the runner's tool_call/tool_result chains (three handlers each), against calling the no-op
// execute directly (the raw baseline, same run).
// Run after `pnpm --filter @tackle/extensions build`:  pnpm --filter @tackle/extensions bench
import { performance } from "node:perf_hooks";
import { Type } from "@sinclair/typebox";
import { executeTool, prepareToolArguments } from "@tackle/agent-core";
import {
  createHeadlessUI,
  defineTool,
  ExtensionRunner,
  silentLogger,
  wrapToolDefinition,
} from "../dist/index.js";

const CALLS = 10_000;

const noop = defineTool({
  name: "noop",
  label: "No-op",
  description: "Does nothing.",
  annotations: { readOnlyHint: true },
  parameters: Type.Object({ n: Type.Integer() }),
  async execute(_id, params) {
    return { content: [{ type: "text", text: "ok" }], details: params };
  },
});

const context = {
  cwd: "/",
  operations: {},
  workspace: {},
  mutations: {},
  artifacts: {},
  reads: {},
  ui: createHeadlessUI(),
  signal: undefined,
  logger: silentLogger,
  session: { id: "bench" },
};

const observer = (name) => ({
  name,
  setup(api) {
    api.on("tool_call", (event) => (event.input.n < 0 ? { block: true, reason: "negative" } : undefined));
    api.on("tool_result", () => undefined);
  },
});

async function timeRaw() {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await noop.execute(`c${i}`, { n: i }, undefined, undefined, context);
  return performance.now() - start;
}

async function timeWrapped() {
  const tool = wrapToolDefinition(noop, () => context);
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await executeTool(tool, `c${i}`, { n: i });
  return performance.now() - start;
}

async function timeRunner() {
  const runner = new ExtensionRunner({ context: () => context, builtinTools: [noop] });
  await runner.load([observer("a"), observer("b"), observer("c")]);
  const [tool] = runner.tools();
  const base = { assistantMessage: { role: "assistant", content: [], stopReason: "toolUse", timestamp: 0 } };
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const toolCall = { type: "toolCall", id: `c${i}`, name: "noop", arguments: { n: i } };
    const prepared = prepareToolArguments(tool, toolCall.arguments);
    const hook = { ...base, toolCall, tool, args: prepared.args, context: { messages: [], tools: [tool] } };
    await runner.beforeToolCall(hook, undefined);
    const result = await executeTool(tool, toolCall.id, hook.args);
    await runner.afterToolCall({ ...hook, result }, undefined);
  }
  return performance.now() - start;
}

const line = (label, ms, baseline) => {
  const ratio = baseline === undefined ? "" : `  ${(ms / baseline).toFixed(1)}x raw`;
  const rate = Math.round(CALLS / (ms / 1000)).toLocaleString("en-US");
  console.log(
    `${label.padEnd(40)} ${rate.padStart(10)} calls/s  ${((ms * 1000) / CALLS).toFixed(2).padStart(8)} us/call${ratio}`,
  );
};

await timeRaw();
await timeWrapped();
await timeRunner();

const raw = await timeRaw();
console.log(`${CALLS.toLocaleString("en-US")} no-op tool calls (node ${process.version})`);
line("raw execute()", raw);
line("wrapped tool (context per call)", await timeWrapped(), raw);
line("runner: 3 tool_call + 3 tool_result", await timeRunner(), raw);
