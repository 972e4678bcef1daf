// Scale on Kubernetes: N = 1, 8, 32 sessions (SCALE_SESSIONS to change; 128 too with `--big`) spread
// over min(N, 4) pods, each session with its own adapter, tool context and copy of a small
// workspace, running grep -> read -> edit -> bash SCALE_CYCLES times (default 3; the cycle is
// scripts/bench/scale.mjs). The pods are containers of a private dockerd behind the test-only local
// API endpoint (pod exec over TLS websockets, the real client library), so the numbers include
// the websocket and API-path costs but not a real cluster's network. Raw baseline, same run: one
// plain pod exec (`cat` of a workspace file, no wrapper, no resident shell) per call, as many
// calls as the sessions make, N at a time. Reports calls/s and its ratio to the baseline, p50/p99
// per tool, processes left in the pods after dispose, open exec connections left (target 0 each).
// Run: pnpm --filter @tackle/operations-kubernetes bench (root: it starts dockerd).
import { spawnSync } from "node:child_process";
import { posix } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import {
  reportScaleRun,
  runSessionCycles,
  scaleSessions,
  scaleWorkspaceFiles,
  waitFor,
} from "../../../scripts/bench/scale.mjs";
import { percentile } from "../../../scripts/bench/stats.mjs";

const SESSIONS = scaleSessions([1, 8, 32]);
const CYCLES = Number(process.env.SCALE_CYCLES ?? 3);
const WORK = "/work";
const NAMESPACE = "bench";

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
    const { result, left, connectionsLeft, pods, raw } = JSON.parse(run.stdout.trim().split("\n").pop());
    const params = { n, pods, cycles: CYCLES };
    const quiet = { quiet: true };
    report.measure(
      { case: "k8s-raw-exec", metric: "calls-per-s", unit: "1/s", value: raw.callsPerSecond, params },
      quiet,
    );
    report.measure({ case: "k8s-raw-exec", metric: "p99", unit: "ms", value: raw.p99, params }, quiet);
    report.measure(
      {
        case: "k8s",
        metric: "vs-raw-exec",
        unit: "x",
        value: result.callsPerSecond / raw.callsPerSecond,
        params,
      },
      quiet,
    );
    report.measure(
      {
        case: "k8s",
        metric: "connections-left",
        unit: "count",
        value: connectionsLeft,
        params,
        target: { op: "<=", value: 0, of: "value" },
      },
      quiet,
    );
    report.note(
      `k8s N=${String(n).padStart(3)} over ${pods} pod(s): raw pod exec ${raw.callsPerSecond.toFixed(1)} calls/s (p99 ${raw.p99.toFixed(0)} ms); ` +
        `tools ${result.callsPerSecond.toFixed(1)} calls/s = ${(result.callsPerSecond / raw.callsPerSecond).toFixed(2)}x raw; exec connections left ${connectionsLeft}`,
    );
    reportScaleRun(report, "k8s", n, result, left, { pods, cycles: CYCLES });
    if (left > 0 || connectionsLeft > 0 || result.errors.length > 0) process.exitCode = 1;
  }
}

async function child(n) {
  const { default: Docker } = await import("dockerode");
  const { Exec } = await import("@kubernetes/client-node");
  const { Writable } = await import("node:stream");
  const { invokeTool } = await import("@tackle/agent-core");
  const { createToolContext, createTools } = await import("@tackle/tools");
  const { importMinimalImage, startPrivateEngine } = await import("@tackle/operations-docker/testing");
  const { createKubernetesOperations } = await import("../dist/index.js");
  const { LocalApiServer } = await import("./.out/local-api-server.js");
  const engine = await startPrivateEngine();
  const docker = new Docker({ socketPath: engine.socketPath });
  const api = new LocalApiServer(docker);
  const containers = [];
  try {
    const image = await importMinimalImage(engine);
    await api.start();
    const podCount = Math.min(n, 4);
    const pods = [];
    for (let p = 0; p < podCount; p++) {
      const container = await docker.createContainer({
        Image: image,
        Entrypoint: ["sh", "-c", "while :; do sleep 3600; done"],
        Cmd: [],
        HostConfig: { NetworkMode: "none", Init: true },
      });
      containers.push(container);
      await container.start();
      const name = `bench-${p}`;
      api.addPod({ name, namespace: NAMESPACE, containers: { main: container.id } });
      pods.push({ name, container });
    }
    const kubeconfig = api.kubeConfig({ namespace: NAMESPACE });
    const operations = [];
    const contexts = [];
    const sessions = [];
    for (let i = 0; i < n; i++) {
      const ops = createKubernetesOperations({ pod: pods[i % podCount].name, kubeconfig });
      operations.push(ops);
      const root = posix.join(WORK, `s${i}`);
      for (const [path, text] of Object.entries(scaleWorkspaceFiles())) {
        const full = posix.join(root, path);
        await ops.mkdir(posix.dirname(full), { recursive: true });
        await ops.writeFile(full, text);
      }
      const context = createToolContext({ cwd: root, operations: ops });
      contexts.push(context);
      sessions.push({ tools: createTools({ context, names: ["grep", "read", "edit", "bash"] }) });
    }

    // Raw baseline: the same number of calls as plain pod execs, N at a time.
    const exec = new Exec(kubeconfig);
    const rawCalls = n * CYCLES * 4;
    const times = [];
    const rawStart = performance.now();
    let next = 0;
    const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        while (next < rawCalls) {
          next++;
          const started = performance.now();
          await new Promise((resolve, reject) => {
            exec
              .exec(
                NAMESPACE,
                pods[i % podCount].name,
                "main",
                ["cat", `${WORK}/s${i}/README.md`],
                sink(),
                sink(),
                null,
                false,
                (status) =>
                  status.status === "Success" ? resolve() : reject(new Error(JSON.stringify(status))),
              )
              .catch(reject);
          });
          times.push(performance.now() - started);
        }
      }),
    );
    const rawElapsed = performance.now() - rawStart;
    const raw = { callsPerSecond: rawCalls / (rawElapsed / 1000), p99: percentile(times, 99) };

    const result = await runSessionCycles({ sessions, cycles: CYCLES, invoke: invokeTool });
    await Promise.all(contexts.map((context) => context.dispose()));
    await Promise.all(operations.map((ops) => ops.dispose()));
    await waitFor(() => api.openConnections === 0, 5000);
    // Left in the pods: anything but the container's init, its keep-alive loop and that loop's sleep.
    const inPods = async () => {
      let count = 0;
      for (const { container } of pods) {
        const probe = await container.exec({
          Cmd: ["sh", "-c", "ps -o pid,args | tail -n +2"],
          AttachStdout: true,
        });
        const stream = await probe.start({ hijack: true, stdin: false });
        const chunks = [];
        await new Promise((resolve) => {
          docker.modem.demuxStream(stream, { write: (c) => chunks.push(c) }, { write: () => {} });
          stream.on("end", resolve);
        });
        const lines = Buffer.concat(chunks).toString("utf8").trim().split("\n");
        count += lines.filter(
          (line) =>
            !/docker-init|while :; do sleep 3600|sleep 3600|ps -o pid,args|tail -n \+2|sh -c ps/.test(line),
        ).length;
      }
      return count;
    };
    await waitFor(async () => (await inPods()) === 0, 5000);
    const left = await inPods();
    console.log(JSON.stringify({ result, left, connectionsLeft: api.openConnections, pods: podCount, raw }));
  } finally {
    await api.stop().catch(() => {});
    await Promise.all(containers.map((container) => container.remove({ force: true }).catch(() => {})));
    await engine.stop();
  }
}
