// CLI costs a user feels, measured against baselines in the same run (run `pnpm build` first):
// 1. start: `tackle tool read` as a fresh process vs a bare `node -e ""` start, alternating
//    (median of CLI_BENCH_RUNS, default 9). Target ratio <= 2.
// 2. mcp-connect: spawning `tackle mcp` until its first `tools/list` is answered, with the SDK 1
//    client (2025-11-25, initialize) and the SDK 2 client pinned to 2026-07-28 (server/discover,
//    which the SDK probes on a sibling process first) vs a bare `node -e ""` start (median).
// 3. mcp-read: 100 `read` calls through `tackle mcp` with each client vs the same 100 calls
//    through invokeTool in this process (what the MCP hop adds per call).
// --json prints JSON lines (docs/performance.md).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client as Client2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Transport2 } from "@modelcontextprotocol/client/stdio";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Transport1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { invokeTool } from "@tackle/agent-core";
import { createTool } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";

const RUNS = Number(process.env.CLI_BENCH_RUNS ?? 9);
const CALLS = 100;
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const report = createBenchReport(import.meta.url, "cli");

function timeProcess(args) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return performance.now() - start;
}

const dir = mkdtempSync(join(tmpdir(), "tackle-cli-bench-"));
try {
  writeFileSync(join(dir, "file.txt"), "one\ntwo\nthree\n");
  const bare = [];
  const tool = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(timeProcess(["-e", ""]));
    tool.push(timeProcess([bin, "tool", "read", '{"path":"file.txt"}', "--cwd", dir]));
  }
  report.measure({
    case: "start",
    metric: "time",
    unit: "ms",
    value: median(tool),
    stat: "median",
    rounds: RUNS,
    baseline: { name: 'bare node -e ""', value: median(bare) },
    target: { op: "<=", value: 2, of: "ratio" },
    label: "tackle tool read (fresh process)",
  });

  const read = createTool("read", { context: createLocalToolContext({ cwd: dir }) });
  let start = performance.now();
  for (let i = 0; i < CALLS; i++) await invokeTool(read, { path: "file.txt" });
  const direct = (performance.now() - start) / CALLS;

  const clients = {
    "2025-11-25 (SDK 1 client)": () => ({
      client: new Client1({ name: "tackle-bench", version: "1.0.0" }),
      transport: new Transport1({
        command: process.execPath,
        args: [bin, "mcp", "--cwd", dir],
        stderr: "ignore",
      }),
    }),
    "2026-07-28 (SDK 2 client)": () => ({
      client: new Client2(
        { name: "tackle-bench", version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      ),
      transport: new Transport2({
        command: process.execPath,
        args: [bin, "mcp", "--cwd", dir],
        stderr: "ignore",
      }),
    }),
  };
  const close = async ({ client, transport }) => {
    const pid = transport.pid;
    await client.close();
    if (pid) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  };

  for (const [era, open] of Object.entries(clients)) {
    const connect = [];
    const baseline = [];
    for (let i = 0; i < RUNS; i++) {
      baseline.push(timeProcess(["-e", ""]));
      const connection = open();
      const begin = performance.now();
      await connection.client.connect(connection.transport);
      await connection.client.listTools();
      connect.push(performance.now() - begin);
      await close(connection);
    }
    report.measure({
      case: "mcp-connect",
      metric: "time",
      unit: "ms",
      value: median(connect),
      stat: "median",
      rounds: RUNS,
      baseline: { name: 'bare node -e ""', value: median(baseline) },
      params: { protocol: era },
      label: `tackle mcp spawned until tools/list answers, ${era}`,
    });

    const connection = open();
    await connection.client.connect(connection.transport);
    await connection.client.callTool({ name: "read", arguments: { path: "file.txt" } });
    start = performance.now();
    for (let i = 0; i < CALLS; i++) {
      await connection.client.callTool({ name: "read", arguments: { path: "file.txt" } });
    }
    const viaMcp = (performance.now() - start) / CALLS;
    await close(connection);
    report.measure({
      case: "mcp-read",
      metric: "per-call",
      unit: "ms",
      value: viaMcp,
      stat: "mean",
      rounds: CALLS,
      baseline: { name: "in-process invokeTool", value: direct },
      params: { protocol: era },
      label: `${CALLS} read calls through tackle mcp, ${era}`,
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
