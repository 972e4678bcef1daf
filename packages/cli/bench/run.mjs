// CLI costs a user feels, measured against baselines in the same run (run `pnpm build` first):
// 1. `tackle tool read` as a fresh process vs a bare `node -e ""` start (median of RUNS).
// 2. 100 `read` calls through `tackle mcp` with the official SDK client vs the same 100 calls
//    through invokeTool in this process (what the MCP hop adds per call).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { invokeTool } from "@tackle/agent-core";
import { createTool } from "@tackle/tools";
import { createLocalToolContext } from "@tackle/tools/local";

const RUNS = Number(process.env.CLI_BENCH_RUNS ?? 9);
const CALLS = 100;
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

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
  const startup = median(tool) - median(bare);
  console.log(
    `tackle tool read (fresh process): ${median(tool).toFixed(0)} ms; bare node start ${median(bare).toFixed(0)} ms; ` +
      `tackle's own cost ${startup.toFixed(0)} ms (median of ${RUNS})`,
  );

  const read = createTool("read", { context: createLocalToolContext({ cwd: dir }) });
  let start = performance.now();
  for (let i = 0; i < CALLS; i++) await invokeTool(read, { path: "file.txt" });
  const direct = (performance.now() - start) / CALLS;

  const client = new Client({ name: "tackle-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "mcp", "--cwd", dir],
    stderr: "ignore",
  });
  await client.connect(transport);
  await client.callTool({ name: "read", arguments: { path: "file.txt" } });
  start = performance.now();
  for (let i = 0; i < CALLS; i++) await client.callTool({ name: "read", arguments: { path: "file.txt" } });
  const viaMcp = (performance.now() - start) / CALLS;
  const pid = transport.pid;
  await client.close();
  if (pid) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  console.log(
    `${CALLS} read calls: in-process invokeTool ${direct.toFixed(2)} ms/call, through tackle mcp ${viaMcp.toFixed(2)} ms/call ` +
      `(ratio ${(viaMcp / direct).toFixed(2)}, MCP hop ${(viaMcp - direct).toFixed(2)} ms/call)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
