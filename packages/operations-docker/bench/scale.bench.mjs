// Scale in Docker: N = 1, 8 session containers, 128 too with `--big` (SCALE_SESSIONS to change) on a private
// engine started here (root needed), each started with startSessionContainer, given a copy of a
// small workspace, and running grep -> read -> edit -> bash SCALE_CYCLES times (default 3; the
// cycle is scripts/bench/scale.mjs) through its own tool context; then every container is
// disposed. Each N runs in a fresh child process. Reports the container start cost per session
// (p50/p99 of N concurrent starts, and the wall time of all starts), calls/s, p50/p99 per tool,
// peak RSS and fds of the host process, containers and processes left (target 0), errors.
// Run: pnpm --filter @tackle/operations-docker bench (builds first).
import { spawnSync } from "node:child_process";
import { posix } from "node:path";
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
import { percentile } from "../../../scripts/bench/stats.mjs";

const SESSIONS = scaleSessions([1, 8]);
const CYCLES = Number(process.env.SCALE_CYCLES ?? 3);
const WORK = "/work";

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
    const { result, left, containersLeft, start } = JSON.parse(run.stdout.trim().split("\n").pop());
    const params = { n, cycles: CYCLES };
    const quiet = { quiet: true };
    report.measure({ case: "docker-start", metric: "p50", unit: "ms", value: start.p50, params }, quiet);
    report.measure({ case: "docker-start", metric: "p99", unit: "ms", value: start.p99, params }, quiet);
    report.measure({ case: "docker-start", metric: "wall", unit: "ms", value: start.wall, params }, quiet);
    report.note(
      `docker N=${String(n).padStart(3)}: container start per session p50 ${start.p50.toFixed(0)} ms, p99 ${start.p99.toFixed(0)} ms ` +
        `(${n} at once: ${start.wall.toFixed(0)} ms); containers left ${containersLeft}`,
    );
    report.measure(
      {
        case: "docker",
        metric: "containers-left",
        unit: "count",
        value: containersLeft,
        params,
        target: { op: "<=", value: 0, of: "value" },
      },
      quiet,
    );
    reportScaleRun(report, "docker", n, result, left, { cycles: CYCLES });
    if (left > 0 || containersLeft > 0 || result.errors.length > 0) process.exitCode = 1;
  }
}

async function child(n) {
  const { default: Docker } = await import("dockerode");
  const { invokeTool } = await import("@tackle/agent-core");
  const { createToolContext, createTools } = await import("@tackle/tools");
  const { startSessionContainer } = await import("../dist/index.js");
  const { importMinimalImage, startPrivateEngine } = await import("../dist/testing/index.js");
  const engine = await startPrivateEngine();
  // The engine (and whatever it runs) is the harness's, not the tools'.
  const harness = [...new Set(descendantsOf(process.pid).map((p) => p.pgid))];
  const containers = [];
  try {
    const image = await importMinimalImage(engine);
    const docker = { socketPath: engine.socketPath };
    const startTimes = [];
    const wallStart = performance.now();
    await Promise.all(
      Array.from({ length: n }, async () => {
        const started = performance.now();
        const session = await startSessionContainer({ image, docker });
        startTimes.push(performance.now() - started);
        containers.push(session);
      }),
    );
    const wall = performance.now() - wallStart;
    const sessions = [];
    const contexts = [];
    for (const session of containers) {
      for (const [path, text] of Object.entries(scaleWorkspaceFiles())) {
        const full = posix.join(WORK, path);
        await session.mkdir(posix.dirname(full), { recursive: true });
        await session.writeFile(full, new TextEncoder().encode(text));
      }
      const context = createToolContext({ cwd: WORK, operations: session });
      contexts.push(context);
      sessions.push({ tools: createTools({ context, names: ["grep", "read", "edit", "bash"] }) });
    }
    const result = await runSessionCycles({ sessions, cycles: CYCLES, invoke: invokeTool });
    await Promise.all(contexts.map((context) => context.dispose()));
    await Promise.all(containers.map((session) => session.dispose()));
    const listed = await new Docker(docker).listContainers({
      all: true,
      filters: { label: ["dev.tackle.session"] },
    });
    await waitFor(() => descendantsOf(process.pid, harness).length === 0, 5000);
    const left = descendantsOf(process.pid, harness);
    if (left.length > 0) console.error(`left behind: ${JSON.stringify(left)}`);
    console.log(
      JSON.stringify({
        result,
        left: left.length,
        containersLeft: listed.length,
        start: { p50: percentile(startTimes, 50), p99: percentile(startTimes, 99), wall },
      }),
    );
  } finally {
    await Promise.all(containers.map((session) => session.dispose().catch(() => {})));
    await engine.stop();
  }
}
