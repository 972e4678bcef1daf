// What the audit trail adds per call, as ratios against the same call unaudited, in one run:
// (1) invokeTool on a no-op tool (intent, validation, output size, end into a JSONL file), and
// (2) the bash tool running `true` in a small working directory (plus policy, spawn, output,
// process end and the two workspace snapshots). Audited and plain calls alternate, so machine
// load hits both alike. The audit file is a real JSONL sink (one write per event).
// Run `pnpm --filter @tackle/tools build` first. AUDIT_BENCH_REPS changes the bash repetitions.
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Type } from "@sinclair/typebox";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { createLocalOperations } from "@tackle/operations-local";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { createJsonlAuditSink } from "../dist/audit/index.js";
import { createArtifactStore } from "../dist/context/index.js";
import { createToolContext, createToolDefinition } from "../dist/index.js";

const report = createBenchReport(import.meta.url, "audit");

const NOOP_CALLS = 20_000;
const BASH_REPS = Number(process.env.AUDIT_BENCH_REPS ?? 40);
const dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-audit-bench-")));
const sink = createJsonlAuditSink(join(dir, "state", "audit.jsonl"));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const noop = {
  name: "noop",
  label: "No-op",
  description: "Does nothing.",
  parameters: Type.Object({ n: Type.Integer(), tag: Type.Optional(Type.String()) }),
  async execute(_id, params) {
    return { content: [{ type: "text", text: "ok" }], details: params };
  },
};

/** Per-call time of `calls` no-op invocations, plain or audited, in alternating blocks. */
async function noopBench() {
  const audit = { sink, requestedBy: "model", sessionId: "bench" };
  const block = 1000;
  const plain = [];
  const audited = [];
  for (let done = 0; done < NOOP_CALLS; done += block) {
    let start = performance.now();
    for (let i = 0; i < block; i++) await invokeTool(noop, { n: i, tag: "x" }, { toolCallId: `p${i}` });
    plain.push((performance.now() - start) / block);
    start = performance.now();
    for (let i = 0; i < block; i++)
      await invokeTool(noop, { n: i, tag: "x" }, { toolCallId: `a${i}`, audit });
    audited.push((performance.now() - start) / block);
  }
  return { plain: median(plain), audited: median(audited) };
}

async function bashBench() {
  const work = join(dir, "work");
  const local = createLocalOperations();
  await local.mkdir(work, { recursive: true });
  // A small project: 200 files in 10 directories for the snapshots to list.
  for (let d = 0; d < 10; d++) {
    await local.mkdir(join(work, `d${d}`), { recursive: true });
    for (let f = 0; f < 20; f++) await writeFile(join(work, `d${d}`, `f${f}.txt`), "x".repeat(f));
  }
  const artifacts = createArtifactStore({ operations: local, sessionId: "bench", baseDir: dir });
  const plainCtx = createToolContext({ cwd: work, operations: local, artifacts });
  const auditedCtx = createToolContext({ cwd: work, operations: local, artifacts, audit: sink });
  const plainTool = wrapToolDefinition(createToolDefinition("bash"), () => plainCtx);
  const auditedTool = wrapToolDefinition(createToolDefinition("bash"), () => auditedCtx);
  const audit = { sink: auditedCtx.audit, requestedBy: "model", sessionId: "bench" };
  // Warm up the parser, the artifact directory and the adapter.
  await invokeTool(plainTool, { command: "true" });
  await invokeTool(auditedTool, { command: "true" }, { audit });
  const plain = [];
  const audited = [];
  for (let i = 0; i < BASH_REPS; i++) {
    let start = performance.now();
    await invokeTool(plainTool, { command: "true" });
    plain.push(performance.now() - start);
    start = performance.now();
    await invokeTool(auditedTool, { command: "true" }, { audit, toolCallId: `b${i}` });
    audited.push(performance.now() - start);
  }
  return { plain: median(plain), audited: median(audited) };
}

try {
  const n = await noopBench();
  report.measure({
    case: "invokeTool no-op",
    metric: "per call",
    unit: "us",
    value: n.audited * 1000,
    stat: "median",
    rounds: NOOP_CALLS / 1000,
    baseline: { name: "unaudited", value: n.plain * 1000 },
    target: { op: "<=", value: 1.05, of: "ratio" },
    label: "invokeTool no-op, audited into a JSONL file",
  });
  const b = await bashBench();
  report.measure({
    case: "bash true",
    metric: "per call",
    unit: "ms",
    value: b.audited,
    stat: "median",
    rounds: BASH_REPS,
    baseline: { name: "unaudited", value: b.plain },
    target: { op: "<=", value: 1.05, of: "ratio" },
    params: { files: 200 },
    label: "bash `true` in a 200-file directory, audited (two snapshots)",
  });
} finally {
  await sink.close();
  await rm(dir, { recursive: true, force: true });
}
