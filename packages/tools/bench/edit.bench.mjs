// edit benchmarks (run after `pnpm --filter @tackle/tools build`):
// 1. edit-50: 50 edits in one call on a 10 MB file through the tool (invokeTool, local context)
//    vs plain Node in the same rounds: readFile, indexOf + slice per edit, writeFile. Target <= 1.5.
// 2. edit-50 rss-added: peak RSS the same call adds to a process that imported and created the
//    tools (a child process per measurement). Target < 64 MB.
// 3. edit-parallel: 200 parallel edit calls to one file through the agent loop with the faux
//    model: all must land (the mutation queue), time printed.
// EDIT_RUNS changes the rounds (default 5).
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { agentLoop, invokeTool, userMessage } from "@tackle/agent-core";
import { createFauxModel, fauxToolCall } from "@tackle/agent-core/testing";
import { measureAddedRss } from "../../../scripts/bench/memory.mjs";
import { createBenchReport } from "../../../scripts/bench/report.mjs";
import { median } from "../../../scripts/bench/stats.mjs";
import { createTool } from "../dist/index.js";
import { createLocalToolContext } from "../dist/local.js";

const FILE_BYTES = 10 * 1024 * 1024;
const EDITS = 50;
const PARALLEL_CALLS = 200;
const RUNS = Number(process.env.EDIT_RUNS ?? 5);

if (process.argv[2] === "--child") {
  await child(process.argv[3]);
} else {
  await parent();
}

function bigFile() {
  const lines = [];
  let bytes = 0;
  for (let i = 0; bytes < FILE_BYTES; i++) {
    const line = `  const value${i} = compute(${i}, "some padding text", options); // row ${i}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  // Markers spread evenly, each unique.
  const step = Math.floor(lines.length / EDITS);
  const edits = [];
  for (let e = 0; e < EDITS; e++) {
    const at = e * step + 7;
    lines[at] = `  marker(${e}); // edit target`;
    edits.push({
      oldText: `  marker(${e}); // edit target`,
      newText: `  marker(${e}, "changed"); // edited`,
    });
  }
  return { text: `${lines.join("\n")}\n`, edits };
}

/**
 * The least any edit must do: read, find each oldText in the original (indexOf), splice the
 * pieces in one join, write.
 */
async function plainNodeEdit(path, edits) {
  const content = await readFile(path, "utf8");
  const found = edits.map((edit) => {
    const at = content.indexOf(edit.oldText);
    if (at === -1) throw new Error(`not found: ${edit.oldText}`);
    return { at, edit };
  });
  found.sort((a, b) => a.at - b.at);
  const pieces = [];
  let from = 0;
  for (const { at, edit } of found) {
    pieces.push(content.slice(from, at), edit.newText);
    from = at + edit.oldText.length;
  }
  pieces.push(content.slice(from));
  const result = pieces.join("");
  await writeFile(path, result);
  return result;
}

async function parent() {
  const report = createBenchReport(import.meta.url, "edit");
  const dir = await mkdtemp(join(tmpdir(), "tackle-edit-bench-"));
  try {
    const { text, edits } = bigFile();
    const path = join(dir, "big.ts");
    const params = { bytes: text.length, edits: EDITS };
    await writeFile(path, text);
    const expected = await plainNodeEdit(path, edits);
    const tool = [];
    const raw = [];
    const plainSide = async () => {
      await writeFile(path, text);
      const start = performance.now();
      await plainNodeEdit(path, edits);
      return performance.now() - start;
    };
    const toolSide = async () => {
      // A fresh context per call, as a new session would have (no read recorded).
      const edit = createTool("edit", { context: createLocalToolContext({ cwd: dir }) });
      await writeFile(path, text);
      const start = performance.now();
      const outcome = await invokeTool(edit, { path: "big.ts", edits });
      const ms = performance.now() - start;
      if (outcome.isError) throw new Error(`edit failed: ${JSON.stringify(outcome.content)}`);
      if ((await readFile(path, "utf8")) !== expected) throw new Error("edit result differs");
      return ms;
    };
    await toolSide(); // warm-up
    for (let round = 0; round < RUNS; round++) {
      if (round % 2 === 0) {
        raw.push(await plainSide());
        tool.push(await toolSide());
      } else {
        tool.push(await toolSide());
        raw.push(await plainSide());
      }
    }
    report.measure({
      case: "edit-50",
      metric: "time",
      unit: "ms",
      value: median(tool),
      stat: "median",
      rounds: RUNS,
      baseline: { name: "plain Node readFile + indexOf/slice + writeFile", value: median(raw) },
      target: { op: "<=", value: 1.5, of: "ratio" },
      params,
    });

    const added = [];
    for (let round = 0; round < Math.min(RUNS, 3); round++) {
      await writeFile(path, text);
      const run = spawnSync(
        process.execPath,
        ["--expose-gc", fileURLToPath(import.meta.url), "--child", dir],
        {
          encoding: "utf8",
        },
      );
      if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
      added.push(JSON.parse(run.stdout.trim().split("\n").pop()).addedMb);
    }
    report.measure({
      case: "edit-50",
      metric: "rss-added",
      unit: "MB",
      value: Math.max(...added),
      stat: "max",
      rounds: added.length,
      target: { op: "<=", value: 64, of: "value" },
      params,
      label: "edit-50: peak RSS added over a process with the tools created",
    });

    const parallel = await benchParallelCalls(dir);
    report.measure({
      case: "edit-parallel",
      metric: "time",
      unit: "ms",
      value: parallel.ms,
      params: { calls: PARALLEL_CALLS, landed: parallel.landed, errors: parallel.errors },
    });
    if (parallel.landed !== PARALLEL_CALLS || parallel.errors !== 0) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function child(dir) {
  const { edits } = bigFile();
  const edit = createTool("edit", { context: createLocalToolContext({ cwd: dir }) });
  await writeFile(join(dir, "warm.txt"), "one\ntwo\n");
  await invokeTool(edit, { path: "warm.txt", edits: [{ oldText: "one", newText: "uno" }] });
  const measured = await measureAddedRss(() => invokeTool(edit, { path: "big.ts", edits }));
  if (measured.result.isError) throw new Error(JSON.stringify(measured.result.content));
  console.log(JSON.stringify({ addedMb: measured.addedMb }));
}

async function benchParallelCalls(dir) {
  const path = join(dir, "parallel.txt");
  const lines = Array.from(
    { length: PARALLEL_CALLS },
    (_, i) => `entry ${String(i).padStart(4, "0")} = pending`,
  );
  await writeFile(path, `${lines.join("\n")}\n`);
  const edit = createTool("edit", { context: createLocalToolContext({ cwd: dir }) });
  const calls = lines.map((line) =>
    fauxToolCall("edit", {
      path: "parallel.txt",
      edits: [{ oldText: line, newText: line.replace("pending", "done") }],
    }),
  );
  const faux = createFauxModel([{ content: calls }, "All edits done."]);
  const start = performance.now();
  const run = agentLoop([userMessage("edit every entry")], { messages: [], tools: [edit] }, faux);
  let errors = 0;
  for await (const event of run) {
    if (event.type === "tool_execution_end" && event.isError) errors++;
  }
  await run.result();
  const ms = performance.now() - start;
  const after = await readFile(path, "utf8");
  const landed = after.split("\n").filter((line) => line.endsWith("= done")).length;
  return { ms, landed, errors };
}
