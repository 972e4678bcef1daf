// Benchmark: the audited bash call over SSH, where the workspace snapshots before and after the
// command are most of the audit's cost. In one run, alternating, on loopback against a private
// sshd, in a 200-file working directory (as tools/bench/audit.bench.mjs does locally):
// - snapshot: one workspace snapshot with the adapter's `listTree` (one exec of the listing
//   script) vs the walk the snapshot falls back to without it (readdir + lstat over SFTP), on
//   the 200-file directory and on one of about 2000 entries;
// - bash true: the bash tool running `true`, audited, with `listTree` vs without, and unaudited.
// Prints medians and ratios; no thresholds. AUDIT_SSH_REPS changes the repetitions.
// Run `pnpm --filter @tackle/operations-ssh... build` first.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { createToolContext, createToolDefinition } from "@tackle/tools";
import { createJsonlAuditSink, snapshotWorkspace } from "@tackle/tools/audit";
import { createArtifactStore } from "@tackle/tools/context";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { createSshOperations } from "../dist/index.js";
import { startSshServer } from "../test/support/ssh-server.mjs";

const REPS = Number(process.env.AUDIT_SSH_REPS ?? 20);
const report = createBenchReport(import.meta.url, "audit");
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const server = await startSshServer();
const state = await mkdtemp(join(tmpdir(), "tackle-ssh-audit-bench-"));
const ops = createSshOperations(server.connectOptions);
try {
  await ops.connect();
  /** A working directory of `dirs` x 20 files. */
  const project = async (name, dirs) => {
    const dir = join(server.dir, name);
    for (let d = 0; d < dirs; d++) {
      await mkdir(join(dir, `d${d}`), { recursive: true });
      for (let f = 0; f < 20; f++) await writeFile(join(dir, `d${d}`, `f${f}.txt`), "x".repeat(f));
    }
    return dir;
  };
  const work = await project("work", 10);
  const large = await project("large", 99);
  // The same adapter without listTree: what the snapshot did before it existed over SSH.
  const walking = new Proxy(ops, { get: (target, key) => (key === "listTree" ? undefined : target[key]) });

  for (const [dir, entries] of [
    [work, 210],
    [large, 2079],
  ]) {
    const listed = [];
    const walked = [];
    await snapshotWorkspace(ops, dir);
    await snapshotWorkspace(walking, dir);
    for (let i = 0; i < REPS; i++) {
      let start = performance.now();
      const a = await snapshotWorkspace(ops, dir, { timeBudgetMs: 60_000, maxEntries: 5000 });
      listed.push(performance.now() - start);
      start = performance.now();
      const b = await snapshotWorkspace(walking, dir, { timeBudgetMs: 60_000, maxEntries: 5000 });
      walked.push(performance.now() - start);
      if (a.entries.size !== entries || b.entries.size !== entries) {
        throw new Error(`snapshots saw ${a.entries.size} / ${b.entries.size} entries, not ${entries}`);
      }
    }
    report.measure({
      case: "snapshot",
      metric: "per call",
      unit: "ms",
      value: median(listed),
      stat: "median",
      rounds: REPS,
      baseline: { name: "readdir + lstat walk over SFTP", value: median(walked) },
      params: { entries },
      label: `workspace snapshot over SSH, ${entries} entries, with listTree (one exec)`,
    });
  }

  await mkdir(join(server.dir, "state"), { recursive: true });
  const sink = createJsonlAuditSink(join(state, "audit.jsonl"));
  const artifacts = createArtifactStore({
    operations: ops,
    sessionId: "bench",
    baseDir: join(server.dir, "state"),
  });
  const bash = (operations, audit) =>
    wrapToolDefinition(createToolDefinition("bash"), () =>
      createToolContext({ cwd: work, operations, artifacts, ...(audit ? { audit: sink } : {}) }),
    );
  const tools = { plain: bash(ops, false), listed: bash(ops, true), walked: bash(walking, true) };
  const audit = { sink, requestedBy: "model", sessionId: "bench" };
  const times = { plain: [], listed: [], walked: [] };
  for (let i = -1; i < REPS; i++) {
    for (const [name, tool] of Object.entries(tools)) {
      const start = performance.now();
      const outcome = await invokeTool(
        tool,
        { command: "true" },
        name === "plain" ? {} : { audit, toolCallId: `${name}${i}` },
      );
      if (outcome.isError) throw new Error(`bash failed: ${JSON.stringify(outcome.content)}`);
      if (i >= 0) times[name].push(performance.now() - start);
    }
  }
  await sink.close();
  for (const name of ["listed", "walked"]) {
    report.measure({
      case: `bash true audited (${name === "listed" ? "listTree" : "walk"})`,
      metric: "per call",
      unit: "ms",
      value: median(times[name]),
      stat: "median",
      rounds: REPS,
      baseline: { name: "unaudited", value: median(times.plain) },
      params: { files: 200 },
      label: `bash \`true\` over SSH, audited, snapshots by ${name === "listed" ? "listTree" : "readdir + lstat"}`,
    });
  }
} finally {
  await ops.dispose();
  await server.stop();
  await rm(state, { recursive: true, force: true });
}
