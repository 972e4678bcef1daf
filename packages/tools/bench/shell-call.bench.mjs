// Per-call cost of the bash tool: a trivial command (`true`) through the tool vs through
// `ops.exec` alone, side by side in one run, and how many `exec` calls the tool makes per call
// (over SSH each extra exec is a round trip, about 0.3 s). Prints medians and the ratio.
// Run `pnpm --filter @tackle/tools build` first. SHELL_CALL_REPS changes the repetitions.
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { createLocalOperations } from "@tackle/operations-local";
import { createArtifactStore } from "../dist/context/index.js";
import { createToolContext, createToolDefinition } from "../dist/index.js";

const REPS = Number(process.env.SHELL_CALL_REPS ?? 30);
const dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-shell-call-")));
const local = createLocalOperations();
let execs = 0;
// Counts the tool's exec calls; everything else goes straight to the local adapter.
const ops = new Proxy(local, {
  get(target, key) {
    const value = Reflect.get(target, key);
    if (key === "exec") {
      return (...args) => {
        execs++;
        return value.apply(target, args);
      };
    }
    return typeof value === "function" ? value.bind(target) : value;
  },
});
const ctx = createToolContext({
  cwd: dir,
  operations: ops,
  artifacts: createArtifactStore({ operations: local, sessionId: "bench", baseDir: dir }),
});
const tool = wrapToolDefinition(createToolDefinition("bash"), () => ctx);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function time(run) {
  const samples = [];
  for (let i = 0; i < REPS; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

try {
  // Warm up the parser, the artifact directory and the adapter.
  await invokeTool(tool, { command: "true" });
  const raw = await time(() => local.exec("true", { shell: "bash", cwd: dir }));
  execs = 0;
  const viaTool = await time(async () => {
    const outcome = await invokeTool(tool, { command: "true" });
    if (outcome.isError) throw new Error(JSON.stringify(outcome.content));
  });
  const perCall = execs / REPS;
  console.log(`ops.exec alone:   ${raw.toFixed(1)} ms (median of ${REPS})`);
  console.log(`bash tool:        ${viaTool.toFixed(1)} ms (median of ${REPS})`);
  console.log(`ratio tool/exec:  ${(viaTool / raw).toFixed(2)}x, overhead ${(viaTool - raw).toFixed(1)} ms`);
  console.log(`exec calls per tool call: ${perCall}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
