// Benchmark: 100 small-file reads and 100 `echo` commands through the adapter, against the
// OpenSSH client spawned once per operation and against an OpenSSH ControlMaster connection,
// all in one run on loopback against a private sshd. Prints times and ratios; no thresholds.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { createSshOperations } from "../dist/index.js";
import { startSshServer } from "../test/support/ssh-server.mjs";

const run = promisify(execFile);
const COUNT = 100;

const report = createBenchReport(import.meta.url, "ops");
const server = await startSshServer();
try {
  const dir = join(server.dir, "bench");
  await mkdir(dir);
  const files = Array.from({ length: COUNT }, (_, i) => join(dir, `file-${i}.txt`));
  await Promise.all(files.map((file, i) => writeFile(file, `small file ${i}\n`.repeat(20))));

  const baseArgs = [
    "-p",
    String(server.port),
    "-i",
    server.privateKeyPath,
    "-o",
    "BatchMode=yes",
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "StrictHostKeyChecking=yes",
    "-o",
    `UserKnownHostsFile=${server.knownHostsPath}`,
    "-o",
    "LogLevel=ERROR",
  ];
  const target = `${server.username}@${server.host}`;
  const control = join(server.dir, "control.sock");

  /** Runs `work` COUNT times in sequence; returns total ms. */
  const timed = async (work) => {
    const started = performance.now();
    for (let i = 0; i < COUNT; i++) await work(i);
    return performance.now() - started;
  };
  const sshOnce = (extra, command) =>
    run("ssh", [...baseArgs, ...extra, target, command], { encoding: "buffer" });

  // The adapter (connection included in the read total: it is opened by the first read).
  const ops = createSshOperations({
    ...server.connectOptions,
    ripgrep: false,
  });
  const adapterRead = await timed((i) => ops.readFile(files[i]));
  const adapterEcho = await timed(() => ops.exec("echo hi", { shell: "sh", cwd: "/" }));
  await ops.dispose();

  const perOpRead = await timed((i) => sshOnce([], `cat '${files[i]}'`));
  const perOpEcho = await timed(() => sshOnce([], "echo hi"));

  await run("ssh", [...baseArgs, "-M", "-S", control, "-o", "ControlPersist=yes", "-f", "-N", target]);
  let masterRead;
  let masterEcho;
  try {
    masterRead = await timed((i) => sshOnce(["-S", control], `cat '${files[i]}'`));
    masterEcho = await timed(() => sshOnce(["-S", control], "echo hi"));
  } finally {
    await run("ssh", [...baseArgs, "-S", control, "-O", "exit", target]).catch(() => undefined);
  }

  report.note(`${COUNT} ops each, loopback sshd on port ${server.port}; per-op times`);
  const record = (name, adapter, perOp, master) => {
    const params = { count: COUNT };
    const value = adapter / COUNT;
    report.measure({
      case: name,
      metric: "per-op",
      unit: "ms",
      value,
      baseline: { name: "ssh per operation", value: perOp / COUNT },
      params,
    });
    report.measure({
      case: name,
      metric: "per-op",
      unit: "ms",
      value,
      baseline: { name: "ssh ControlMaster", value: master / COUNT },
      params,
    });
  };
  record("read-small", adapterRead, perOpRead, masterRead);
  record("echo", adapterEcho, perOpEcho, masterEcho);
  report.measure({
    case: "total",
    metric: "time",
    unit: "ms",
    value: adapterRead + adapterEcho,
    baseline: { name: "ssh per operation", value: perOpRead + perOpEcho },
    target: { op: "<=", value: 0.2, of: "ratio" },
    params: { count: COUNT },
  });
} finally {
  await server.stop();
}
