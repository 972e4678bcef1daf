// What the audit trail adds per call, as ratios against the same call unaudited, in one run, on
// the two calls issue 17 names and one real file call:
// (1) invokeTool on a no-op tool (intent, validation, end into a JSONL file). Each block of calls
//     ends with one turn of the event loop, so the block's batched write is counted too. The tool
//     itself costs nothing: what is left is invokeTool's own few microseconds, so this row shows
//     the fixed price of one recorded call (see docs/audit.md, "What it costs");
// (2) the bash tool running `true` in a 200-file working directory (plus policy, spawn, output,
//     process end and the two workspace snapshots);
// (3) the read tool reading a small file (information: a real call that does its own I/O).
// Audited and plain calls alternate, so machine load hits both alike.
// Run `pnpm --filter @tackle/tools build` first. AUDIT_BENCH_REPS changes the bash and read
// repetitions.
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
const BASH_REPS = Number(process.env.AUDIT_BENCH_REPS ?? 80);
const dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-audit-bench-")));
const sink = createJsonlAuditSink(join(dir, "state", "audit.jsonl"));

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

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
    await nextTurn();
    plain.push((performance.now() - start) / block);
    start = performance.now();
    for (let i = 0; i < block; i++)
      await invokeTool(noop, { n: i, tag: "x" }, { toolCallId: `a${i}`, audit });
    // The JSONL sink writes a turn's events when the turn ends: count that write.
    await nextTurn();
    audited.push((performance.now() - start) / block);
  }
  return { plain: median(plain), audited: median(audited) };
}

/** A small project: 200 files in 10 directories (what the shell's snapshots list). */
async function project() {
  const work = join(dir, "work");
  const local = createLocalOperations();
  await local.mkdir(work, { recursive: true });
  for (let d = 0; d < 10; d++) {
    await local.mkdir(join(work, `d${d}`), { recursive: true });
    for (let f = 0; f < 20; f++) await writeFile(join(work, `d${d}`, `f${f}.txt`), "x".repeat(f));
  }
  const artifacts = createArtifactStore({ operations: local, sessionId: "bench", baseDir: dir });
  const plainCtx = createToolContext({ cwd: work, operations: local, artifacts });
  const auditedCtx = createToolContext({ cwd: work, operations: local, artifacts, audit: sink });
  const audit = { sink: auditedCtx.audit, requestedBy: "model", sessionId: "bench" };
  const tools = (name) => ({
    plain: wrapToolDefinition(createToolDefinition(name), () => plainCtx),
    audited: wrapToolDefinition(createToolDefinition(name), () => auditedCtx),
  });
  return { audit, tools };
}

/**
 * Median time of `reps` calls of one tool with `args`, plain and audited alternately (after a
 * warm-up). Each call's time ends with one turn of the event loop, as the no-op blocks do: the
 * JSONL sink's write of the call's last events is counted with the audited call, not with the
 * plain call after it.
 */
async function alternate(tool, args, audit, reps) {
  await invokeTool(tool.plain, args);
  await invokeTool(tool.audited, args, { audit });
  const plain = [];
  const audited = [];
  for (let i = 0; i < reps; i++) {
    let start = performance.now();
    await invokeTool(tool.plain, args);
    await nextTurn();
    plain.push(performance.now() - start);
    start = performance.now();
    await invokeTool(tool.audited, args, { audit, toolCallId: `${tool.plain.name}${i}` });
    await nextTurn();
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
  const { audit, tools } = await project();
  const b = await alternate(tools("bash"), { command: "true" }, audit, BASH_REPS);
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
  const r = await alternate(tools("read"), { path: "d3/f12.txt" }, audit, BASH_REPS * 10);
  report.measure({
    case: "read small file",
    metric: "per call",
    unit: "us",
    value: r.audited * 1000,
    stat: "median",
    rounds: BASH_REPS * 10,
    baseline: { name: "unaudited", value: r.plain * 1000 },
    params: { bytes: 12 },
    label: "read of a 12-byte file, audited (information)",
  });
} finally {
  await sink.close();
  await rm(dir, { recursive: true, force: true });
}
