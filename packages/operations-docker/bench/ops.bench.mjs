// Benchmark: 100 small-file reads and 100 `echo` commands through the adapter vs the same work
// as `docker exec` CLI calls, on a private engine started here (root needed). One run, printed
// side by side with the ratio. `echo` also runs as a bare Engine API exec (create, start, read
// the stream, inspect; no wrapper, no process group, no cleanup): the floor any exec-based
// adapter pays. Run: pnpm --filter @tackle/operations-docker bench
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import Docker from "dockerode";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { startSessionContainer } from "../dist/index.js";
import { importMinimalImage, startPrivateEngine } from "../dist/testing/index.js";

const run = promisify(execFile);
const ROUNDS = 100;
const FILE = "/tmp/bench-small.txt";

async function timed(label, count, action) {
  const started = performance.now();
  for (let i = 0; i < count; i++) await action(i);
  const ms = performance.now() - started;
  return { label, ms, perOp: ms / count };
}

const report = createBenchReport(import.meta.url, "ops");
const engine = await startPrivateEngine();
let session;
try {
  const image = await importMinimalImage(engine);
  session = await startSessionContainer({ image, docker: { socketPath: engine.socketPath } });
  await session.writeFile(FILE, "small file content\n".repeat(10));
  const env = { ...process.env, DOCKER_HOST: `unix://${engine.socketPath}` };
  const cli = (...args) => run("docker", ["exec", session.containerId, ...args], { env });
  const container = new Docker({ socketPath: engine.socketPath }).getContainer(session.containerId);
  const bareExec = async (cmd) => {
    const exec = await container.exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({ hijack: true, stdin: false });
    await new Promise((resolve) => {
      stream.on("end", resolve);
      stream.on("close", resolve);
      stream.resume();
    });
    return (await exec.inspect()).ExitCode;
  };

  // Warm both paths once so neither pays first-call costs inside the measurement.
  await session.readFile(FILE);
  await cli("cat", FILE);
  await bareExec(["sh", "-c", "echo hi"]);

  const results = [
    [
      await timed("readFile (adapter)", ROUNDS, () => session.readFile(FILE)),
      await timed("docker exec cat (CLI)", ROUNDS, () => cli("cat", FILE)),
    ],
    [
      await timed("exec echo (adapter)", ROUNDS, () => session.exec("echo hi", { shell: "sh", cwd: "/" })),
      await timed("docker exec sh -c echo (CLI)", ROUNDS, () => cli("sh", "-c", "echo hi")),
    ],
  ];
  const bare = await timed("bare Engine API exec echo", ROUNDS, () => bareExec(["sh", "-c", "echo hi"]));
  report.note(`engine startup: ${engine.startupMs} ms; ${ROUNDS} rounds each, sequential; per-op times`);
  const params = { rounds: ROUNDS };
  for (const [name, [adapter, baseline]] of [
    ["read-small", results[0]],
    ["echo", results[1]],
  ]) {
    report.measure({
      case: name,
      metric: "per-op",
      unit: "ms",
      value: adapter.perOp,
      baseline: { name: baseline.label, value: baseline.perOp },
      params,
    });
  }
  report.measure({
    case: "echo",
    metric: "per-op",
    unit: "ms",
    value: results[1][0].perOp,
    baseline: { name: bare.label, value: bare.perOp },
    params,
  });
} finally {
  await session?.dispose();
  await engine.stop();
}
