// Edit tool benchmarks (run after `pnpm --filter @tackle/tools build`):
//  1. 50 edits in one call on a 10 MB file through the tool, against plain String.prototype.replace
//     in Node in the same run (read + 50 replaces + write). Target: within 2x. Prints the ratio.
//  2. 200 parallel edit calls to one file through the agent-core executor with the faux model:
//     all 200 must land. Prints the time.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { agentLoop, createFauxModel, fauxToolCall, invokeTool, userMessage } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { createLocalToolContext } from "../dist/local.js";
import { createEditToolDefinition } from "../dist/tools/edit.js";

const FILE_BYTES = 10 * 1024 * 1024;
const EDITS = 50;
const PARALLEL_CALLS = 200;
const RUNS = 5;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
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

async function benchFiftyEdits(dir) {
  const { text, edits } = bigFile();
  const path = join(dir, "big.ts");
  const edit = createEditToolDefinition();
  const baseline = [];
  const replaceOnly = [];
  const tool = [];
  for (let run = 0; run < RUNS; run++) {
    await writeFile(path, text);
    let start = performance.now();
    let content = await readFile(path, "utf8");
    const replaceStart = performance.now();
    for (const { oldText, newText } of edits) content = content.replace(oldText, newText);
    replaceOnly.push(performance.now() - replaceStart);
    await writeFile(path, content);
    baseline.push(performance.now() - start);
    const expected = content;

    await writeFile(path, text);
    const ctx = createLocalToolContext({ cwd: dir });
    const agentTool = wrapToolDefinition(edit, () => ctx);
    start = performance.now();
    const outcome = await invokeTool(agentTool, { path: "big.ts", edits });
    tool.push(performance.now() - start);
    if (outcome.isError) throw new Error(`edit failed: ${JSON.stringify(outcome.content)}`);
    if ((await readFile(path, "utf8")) !== expected)
      throw new Error("edit result differs from String.replace");
  }
  const ratio = median(tool) / median(baseline);
  console.log(
    `edit: ${EDITS} edits on ${(text.length / 1024 / 1024).toFixed(1)} MB: tool ${median(tool).toFixed(1)} ms, ` +
      `String.replace (read+replace+write) ${median(baseline).toFixed(1)} ms, ratio ${ratio.toFixed(2)} (target <= 2.00); ` +
      `the 50 replaces alone ${median(replaceOnly).toFixed(1)} ms (ratio ${(median(tool) / median(replaceOnly)).toFixed(2)}) ` +
      `[median of ${RUNS}]`,
  );
  return ratio;
}

async function benchParallelCalls(dir) {
  const path = join(dir, "parallel.txt");
  const lines = Array.from(
    { length: PARALLEL_CALLS },
    (_, i) => `entry ${String(i).padStart(4, "0")} = pending`,
  );
  await writeFile(path, `${lines.join("\n")}\n`);
  const ctx = createLocalToolContext({ cwd: dir });
  const edit = wrapToolDefinition(createEditToolDefinition(), () => ctx);
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
  const elapsed = performance.now() - start;
  const after = await readFile(path, "utf8");
  const landed = after.split("\n").filter((line) => line.endsWith("= done")).length;
  console.log(
    `edit: ${PARALLEL_CALLS} parallel edit calls to one file through the executor: ${landed}/${PARALLEL_CALLS} landed, ` +
      `${errors} errors, ${elapsed.toFixed(1)} ms`,
  );
  return landed === PARALLEL_CALLS && errors === 0;
}

const dir = await mkdtemp(join(tmpdir(), "tackle-edit-bench-"));
try {
  const ratio = await benchFiftyEdits(dir);
  const allLanded = await benchParallelCalls(dir);
  if (!allLanded) process.exitCode = 1;
  if (ratio > 2) console.log("edit: ratio above the 2x target");
} finally {
  await rm(dir, { recursive: true, force: true });
}
