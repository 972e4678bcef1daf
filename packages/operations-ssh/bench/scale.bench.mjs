// Scale over SSH: N = 1, 8, 32 sessions, 128 too with `--big` (SCALE_SESSIONS to change) against a private sshd
// on loopback (default OpenSSH limits: MaxSessions 10 channels per connection, MaxStartups
// 10:30:100 unauthenticated connections), each session with its own tool context and workspace
// copy, doing grep -> read -> edit -> bash SCALE_CYCLES times (default 3; the cycle is
// scripts/bench/scale.mjs). Two layouts per N, each in a fresh child process:
// - shared: every session on one connection (one SshOperations). The adapter keeps at most
//   6 command channels + 3 helper channels + SFTP open, under MaxSessions; more calls wait.
// - each: one connection per session (N SshOperations, connected together).
// Reports calls/s, p50/p99 per tool, peak RSS and fds of the host process, connections, processes
// left (local descendants plus sshd's children after every adapter is disposed; target 0), errors.
// Run: pnpm --filter @tackle/operations-ssh bench (builds first).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rgPath } from "@vscode/ripgrep";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import {
  descendantsOf,
  reportScaleRun,
  runSessionCycles,
  scaleSessions,
  scaleWorkspaceFiles,
  waitFor,
} from "../../../scripts/bench/scale.mjs";
import { startSshServer } from "../test/support/ssh-server.mjs";

const SESSIONS = scaleSessions([1, 8, 32]);
const CYCLES = Number(process.env.SCALE_CYCLES ?? 3);
const LAYOUTS = (process.env.SCALE_LAYOUTS ?? "shared,each").split(",");

if (process.argv[2] === "--child") {
  await child(process.argv[3], Number(process.argv[4]));
} else {
  const report = createBenchReport(import.meta.url, "scale");
  for (const n of SESSIONS) {
    for (const layout of LAYOUTS) {
      const run = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), "--child", layout, String(n)],
        {
          encoding: "utf8",
          maxBuffer: 16 << 20,
        },
      );
      if (run.status !== 0) throw new Error(`${layout} N=${n} failed: ${run.stderr}`);
      const { result, left, connections } = JSON.parse(run.stdout.trim().split("\n").pop());
      reportScaleRun(report, `ssh-${layout}`, n, result, left, { cycles: CYCLES, connections });
      if (left > 0 || result.errors.length > 0) process.exitCode = 1;
    }
  }
}

async function child(layout, n) {
  const { invokeTool } = await import("@tackle/agent-core");
  const { createToolContext, createTools } = await import("@tackle/tools");
  const { createSshOperations } = await import("../dist/index.js");
  const server = await startSshServer({ tools: [rgPath] });
  // The harness's watcher (which stops sshd if this process dies) is not the tools' to end.
  const harness = [...new Set(descendantsOf(process.pid).map((p) => p.pgid))];
  const adapters = [];
  try {
    const connect = () => {
      const ops = createSshOperations(server.connectOptions);
      adapters.push(ops);
      return ops;
    };
    const shared = layout === "shared" ? connect() : undefined;
    const sessions = [];
    const contexts = [];
    for (let i = 0; i < n; i++) {
      // The server runs on this machine: the workspace copies are written here directly.
      const cwd = join(server.dir, `session-${i}`);
      for (const [path, text] of Object.entries(scaleWorkspaceFiles())) {
        mkdirSync(dirname(join(cwd, path)), { recursive: true });
        writeFileSync(join(cwd, path), text);
      }
      const context = createToolContext({ cwd, operations: shared ?? connect() });
      contexts.push(context);
      sessions.push({ tools: createTools({ context, names: ["grep", "read", "edit", "bash"] }) });
    }
    const result = await runSessionCycles({ sessions, cycles: CYCLES, invoke: invokeTool });
    await Promise.all(contexts.map((context) => context.dispose()));
    await Promise.all(adapters.map((ops) => ops.dispose()));
    // Every remote command, and every per-connection sshd process, must end once disposed.
    const leftBehind = () => [...descendantsOf(process.pid, harness), ...descendantsOf(server.pid)];
    await waitFor(() => leftBehind().length === 0, 10_000);
    const left = leftBehind();
    if (left.length > 0) console.error(`left behind: ${JSON.stringify(left)}`);
    console.log(JSON.stringify({ result, left: left.length, connections: adapters.length }));
  } finally {
    await server.stop();
    for (let i = 0; i < n; i++) rmSync(join(server.dir, `session-${i}`), { recursive: true, force: true });
  }
}
