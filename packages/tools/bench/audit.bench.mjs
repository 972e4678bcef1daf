// What the audit trail adds per call, as ratios against the same call unaudited, in one run, on
// the two calls issue 17 names and one real file call:
// (1) invokeTool on a no-op tool (intent, validation, end into a JSONL file): the CPU time the
//     audit adds per call (target: at most 10 us), and the wall-time ratio as information. Each
//     block of calls ends with one turn of the event loop. The tool itself costs nothing: this
//     row shows the fixed price of one recorded call (see docs/audit.md, "What it costs");
// (2) the bash tool running `true` in a 200-file working directory (plus policy, spawn, output,
//     process end and the two workspace snapshots);
// (3) the read tool reading a small file (target 1.05x: a real call that does its own I/O);
// (4) an edit of a 10 MB file the model read just before, in CPU time (information: what the exact
//     side effect, sha256 before and after, adds to a large file call).
// Audited and plain calls alternate, so machine load hits both alike.
// Run `pnpm --filter @tackle/tools build` first. AUDIT_BENCH_REPS changes the bash and read
// repetitions, AUDIT_BENCH_EDIT_REPS the edit's; AUDIT_BENCH_ROWS=bash,edit runs only those rows
// (noop, bash, read, edit).
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
const EDIT_REPS = Number(process.env.AUDIT_BENCH_EDIT_REPS ?? 20);
const ROWS = new Set((process.env.AUDIT_BENCH_ROWS ?? "noop,bash,read,edit").split(","));
const EDIT_FILE_BYTES = 10 * 1024 * 1024;
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
  const plainCpu = [];
  const auditedCpu = [];
  const cpuMs = (since) => {
    const { user, system } = process.cpuUsage(since);
    return (user + system) / 1000;
  };
  for (let done = 0; done < NOOP_CALLS; done += block) {
    let start = performance.now();
    let cpu = process.cpuUsage();
    for (let i = 0; i < block; i++) await invokeTool(noop, { n: i, tag: "x" }, { toolCallId: `p${i}` });
    await nextTurn();
    plain.push((performance.now() - start) / block);
    plainCpu.push(cpuMs(cpu) / block);
    start = performance.now();
    cpu = process.cpuUsage();
    for (let i = 0; i < block; i++)
      await invokeTool(noop, { n: i, tag: "x" }, { toolCallId: `a${i}`, audit });
    // The JSONL sink writes a call's end before the call returns: its writes are in the block.
    await nextTurn();
    audited.push((performance.now() - start) / block);
    auditedCpu.push(cpuMs(cpu) / block);
  }
  return {
    plain: median(plain),
    audited: median(audited),
    plainCpu: median(plainCpu),
    auditedCpu: median(auditedCpu),
  };
}

/**
 * Median CPU time (this process, all threads) of `reps` edits of a 10 MB file, each right after a
 * read of it (not counted), plain and audited alternately on one file: each edit swaps one line
 * back and forth. CPU time, not wall time: the write's fsync of 10 MB waits on the disk for a
 * time that varies far more than the hashing this row is about.
 */
async function editBench(audit, reps) {
  const work = join(dir, "edit");
  const local = createLocalOperations();
  await local.mkdir(work, { recursive: true });
  const line = (n) => `line ${String(n).padStart(8, "0")} of a large file being edited\n`;
  const count = Math.ceil(EDIT_FILE_BYTES / line(0).length);
  await writeFile(join(work, "big.txt"), Array.from({ length: count }, (_, i) => line(i)).join(""));
  const artifacts = createArtifactStore({ operations: local, sessionId: "bench-edit", baseDir: dir });
  const contexts = {
    plain: createToolContext({ cwd: work, operations: local, artifacts }),
    audited: createToolContext({ cwd: work, operations: local, artifacts, audit: audit.sink }),
  };
  const tool = (name, ctx) => wrapToolDefinition(createToolDefinition(name), () => ctx);
  const tools = Object.fromEntries(
    Object.entries(contexts).map(([kind, ctx]) => [
      kind,
      { read: tool("read", ctx), edit: tool("edit", ctx) },
    ]),
  );
  const marked = line(count >> 1);
  let edited = false;
  const once = async (kind, id) => {
    const options =
      kind === "audited" ? { audit: { ...audit, sink: contexts.audited.audit }, toolCallId: id } : {};
    await invokeTool(tools[kind].read, { path: "big.txt", limit: 1 }, options);
    const edit = edited ? { oldText: "EDITED\n", newText: marked } : { oldText: marked, newText: "EDITED\n" };
    const start = process.cpuUsage();
    const outcome = await invokeTool(tools[kind].edit, { path: "big.txt", edits: [edit] }, options);
    await nextTurn();
    const used = process.cpuUsage(start);
    const ms = (used.user + used.system) / 1000;
    if (outcome.isError) throw new Error(JSON.stringify(outcome.content));
    edited = !edited;
    return ms;
  };
  await once("plain");
  await once("audited", "edit-warm");
  const plain = [];
  const audited = [];
  for (let i = 0; i < reps; i++) {
    plain.push(await once("plain"));
    audited.push(await once("audited", `edit${i}`));
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
 * warm-up), in the order plain-audited, then audited-plain, and so on: whatever one call leaves
 * to the next (its late events, garbage) falls on both kinds alike. Each call's time ends with
 * one turn of the event loop, as the no-op blocks do: the JSONL sink's write of the call's last
 * events is counted with the audited call that recorded them.
 */
async function alternate(tool, args, audit, reps) {
  await invokeTool(tool.plain, args);
  await invokeTool(tool.audited, args, { audit });
  const times = { plain: [], audited: [] };
  const timed = async (kind, i) => {
    const start = performance.now();
    if (kind === "plain") await invokeTool(tool.plain, args);
    else await invokeTool(tool.audited, args, { audit, toolCallId: `${tool.plain.name}${i}` });
    await nextTurn();
    times[kind].push(performance.now() - start);
  };
  for (let i = 0; i < reps; i++) {
    const order = i % 2 === 0 ? ["plain", "audited"] : ["audited", "plain"];
    for (const kind of order) await timed(kind, i);
  }
  return { plain: median(times.plain), audited: median(times.audited) };
}

try {
  if (ROWS.has("noop")) {
    const n = await noopBench();
    report.measure({
      case: "invokeTool no-op",
      metric: "per call",
      unit: "us",
      value: n.audited * 1000,
      stat: "median",
      rounds: NOOP_CALLS / 1000,
      baseline: { name: "unaudited", value: n.plain * 1000 },
      label: "invokeTool no-op, audited into a JSONL file, wall time (information)",
    });
    report.measure({
      case: "invokeTool no-op CPU added",
      metric: "CPU added per call",
      unit: "us",
      value: (n.auditedCpu - n.plainCpu) * 1000,
      stat: "median",
      rounds: NOOP_CALLS / 1000,
      target: { op: "<=", value: 10, of: "value" },
      label: "invokeTool no-op: CPU time the audit adds per call (JSONL file)",
    });
  }
  const { audit, tools } = await project();
  if (ROWS.has("bash")) {
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
  }
  if (ROWS.has("read")) {
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
      target: { op: "<=", value: 1.05, of: "ratio" },
      label: "read of a 12-byte file, audited",
    });
  }
  if (ROWS.has("edit")) {
    const e = await editBench(audit, EDIT_REPS);
    report.measure({
      case: "edit 10 MB file",
      metric: "CPU per call",
      unit: "ms",
      value: e.audited,
      stat: "median",
      rounds: EDIT_REPS,
      baseline: { name: "unaudited", value: e.plain },
      params: { bytes: EDIT_FILE_BYTES },
      label: "edit of a 10 MB file after its read, audited, CPU time (information)",
    });
  }
} finally {
  await sink.close();
  await rm(dir, { recursive: true, force: true });
}
