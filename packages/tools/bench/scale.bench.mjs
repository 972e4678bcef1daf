// Scale, locally: N = 1, 8, 32 sessions at once, 128 too with `--big` (SCALE_SESSIONS to change), each with its
// own local tool context and its own copy of a small workspace, each doing grep -> read -> edit ->
// bash SCALE_CYCLES times (default 3). Each N runs in a fresh child process so its peak RSS is its
// own. Reports calls/s, p50/p99 per tool, peak RSS, peak open fds, processes left after the
// contexts are disposed (target 0) and errors (target 0). Cycle: scripts/bench/scale.mjs.
// Run `pnpm --filter @tackle/tools build` first.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import {
  descendantsOf,
  reportScaleRun,
  runSessionCycles,
  scaleSessions,
  scaleWorkspaceFiles,
  waitFor,
} from "../../../scripts/bench/scale.mjs";

const SESSIONS = scaleSessions([1, 8, 32]);
const CYCLES = Number(process.env.SCALE_CYCLES ?? 3);

if (process.argv[2] === "--child") {
  await child(Number(process.argv[3]));
} else {
  const report = createBenchReport(import.meta.url, "scale");
  for (const n of SESSIONS) {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", String(n)], {
      encoding: "utf8",
      maxBuffer: 16 << 20,
    });
    if (run.status !== 0) throw new Error(`N=${n} failed: ${run.stderr}`);
    const { result, left } = JSON.parse(run.stdout.trim().split("\n").pop());
    reportScaleRun(report, "local", n, result, left, { cycles: CYCLES });
    if (left > 0 || result.errors.length > 0) process.exitCode = 1;
  }
}

async function child(n) {
  const { invokeTool } = await import("@tackle/agent-core");
  const { createTools } = await import("../dist/index.js");
  const { createLocalToolContext } = await import("../dist/local.js");
  const root = mkdtempSync(join(tmpdir(), "tackle-scale-"));
  const contexts = [];
  try {
    const sessions = [];
    for (let i = 0; i < n; i++) {
      const cwd = join(root, `session-${i}`);
      for (const [path, text] of Object.entries(scaleWorkspaceFiles())) {
        mkdirSync(dirname(join(cwd, path)), { recursive: true });
        writeFileSync(join(cwd, path), text);
      }
      const context = createLocalToolContext({ cwd });
      contexts.push(context);
      sessions.push({ tools: createTools({ context, names: ["grep", "read", "edit", "bash"] }) });
    }
    const result = await runSessionCycles({ sessions, cycles: CYCLES, invoke: invokeTool });
    await Promise.all(contexts.map((context) => context.dispose()));
    // Whatever the tools started must be gone; give exiting processes a moment to be reaped.
    await waitFor(() => descendantsOf(process.pid).length === 0, 5000);
    const left = descendantsOf(process.pid);
    if (left.length > 0) console.error(`left behind: ${JSON.stringify(left)}`);
    console.log(JSON.stringify({ result, left: left.length }));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
