// Language-server diagnostics benchmark (run after `pnpm --filter @tackle/tools build`): the round
// trip of a warm typescript-language-server and pyright through the relay, locally. Each server
// is started by a first (cold) edit; then DIAGNOSTICS_RUNS edits (default 10) each change one
// line of a small project file, and the provider's time (details.feedback.server.elapsedMs) is
// reported, with the same edits in a session without a provider as the baseline.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { invokeTool } from "@tackle/agent-core";
import { createLocalOperations } from "@tackle/operations-local";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";
import {
  createLanguageServerDiagnostics,
  createTool,
  PYRIGHT_LANGUAGE_SERVER,
  TYPESCRIPT_LANGUAGE_SERVER,
} from "../dist/index.js";
import { createLocalToolContext } from "../dist/local.js";

const RUNS = Number(process.env.DIAGNOSTICS_RUNS ?? 10);
const require = createRequire(import.meta.url);
const bin = (name) => join(dirname(require.resolve("../package.json")), "node_modules", ".bin", name);

const SERVERS = [
  {
    file: "count.ts",
    content: (n) =>
      `export const count: number = ${n};\nexport function twice(x: number): number {\n  return x * 2;\n}\n`,
    server: {
      ...TYPESCRIPT_LANGUAGE_SERVER,
      command: `${bin("typescript-language-server")} --stdio`,
      initializationOptions: { tsserver: { path: require.resolve("typescript/lib/tsserver.js") } },
    },
  },
  {
    file: "count.py",
    content: (n) => `count: int = ${n}\n\n\ndef twice(x: int) -> int:\n    return x * 2\n`,
    server: { ...PYRIGHT_LANGUAGE_SERVER, command: `${bin("pyright-langserver")} --stdio` },
  },
];

const report = createBenchReport(import.meta.url, "diagnostics");
for (const { file, content, server } of SERVERS) {
  const dir = await mkdtemp(join(tmpdir(), "tackle-diagnostics-bench-"));
  const provider = createLanguageServerDiagnostics({ operations: createLocalOperations(), cwd: dir, server });
  const withServer = createLocalToolContext({
    cwd: dir,
    diagnostics: { providers: [provider], budgetMs: 60_000 },
  });
  const without = createLocalToolContext({ cwd: dir });
  try {
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true } }));
    const write = (context) => createTool("write", { context });
    /** The session without a provider writes its own copy (the other session's would be stale for it). */
    const call = async (context, n) => {
      const start = performance.now();
      const path = context === without ? `baseline-${file}` : file;
      const outcome = await invokeTool(write(context), { path, content: content(n) });
      const ms = performance.now() - start;
      if (outcome.isError) throw new Error(`write failed: ${JSON.stringify(outcome.content)}`);
      return { ms, server: outcome.details.feedback?.server };
    };
    const cold = await call(withServer, 0);
    if (cold.server?.status !== "checked") throw new Error(`${server.name}: ${JSON.stringify(cold.server)}`);
    const warm = [];
    const calls = [];
    const baseline = [];
    for (let round = 1; round <= RUNS; round++) {
      const checked = await call(withServer, round);
      if (checked.server?.status !== "checked")
        throw new Error(`${server.name}: ${JSON.stringify(checked.server)}`);
      warm.push(checked.server.elapsedMs);
      calls.push(checked.ms);
      baseline.push((await call(without, round)).ms);
    }
    report.measure({
      case: `${server.name}-warm-round-trip`,
      metric: "time",
      unit: "ms",
      value: median(calls),
      stat: "median",
      rounds: RUNS,
      baseline: { name: "the same write without a provider", value: median(baseline) },
      params: { providerMedianMs: median(warm), coldStartMs: Math.round(cold.server.elapsedMs) },
    });
  } finally {
    await withServer.dispose();
    await without.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}
