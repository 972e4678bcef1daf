// read tool benchmark: peak memory added by reading the last 50 lines of a 1 GB file through
// the read tool (target: under 64 MB added), and its time against a raw stream of the same file
// in the same run (Node fs.createReadStream counting newlines: the least any exact-total read
// must do). The measurement runs in a child process so its peak RSS is not the generator's.
// Run `pnpm --filter @tackle/tools build` first. Set READ_TAIL_BYTES to change the file size.
import { spawnSync } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const TARGET_BYTES = Number(process.env.READ_TAIL_BYTES ?? 1024 * 1024 * 1024);
const TAIL_LINES = 50;
const LIMIT_MB = 64;

if (process.argv[2] === "--child") {
  await child(process.argv[3], Number(process.argv[4]));
} else {
  await parent();
}

async function parent() {
  const dir = await mkdtemp(join(tmpdir(), "tackle-read-tail-"));
  const file = join(dir, "big.log");
  try {
    const lines = await generate(file);
    await writeFile(join(dir, "small.txt"), "warm\nup\n");
    console.log(`file: ${(TARGET_BYTES / 1024 / 1024).toFixed(0)} MB, ${lines} lines`);
    const rawStart = performance.now();
    let counted = 0;
    for await (const chunk of createReadStream(file)) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) counted++;
    }
    const rawMs = performance.now() - rawStart;
    const run = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), "--child", file, String(lines)],
      {
        encoding: "utf8",
      },
    );
    if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
    const result = JSON.parse(run.stdout.trim().split("\n").pop());
    const addedMb = (result.peakRssKb - result.baselineRssKb) / 1024;
    console.log(`raw stream (count ${counted} lines): ${(rawMs / 1000).toFixed(2)} s`);
    console.log(
      `read tool, last ${TAIL_LINES} lines: ${(result.ms / 1000).toFixed(2)} s (ratio ${(result.ms / rawMs).toFixed(2)} vs raw)`,
    );
    console.log(
      `baseline RSS ${(result.baselineRssKb / 1024).toFixed(1)} MB, peak RSS after ${(result.peakRssKb / 1024).toFixed(1)} MB`,
    );
    console.log(
      `peak memory added: ${addedMb.toFixed(1)} MB (limit ${LIMIT_MB} MB) -> ${addedMb < LIMIT_MB ? "PASS" : "FAIL"}`,
    );
    console.log(
      `last line shown: ${JSON.stringify(result.lastLine)}; notice: ${JSON.stringify(result.notice)}`,
    );
    if (addedMb >= LIMIT_MB || !result.ok) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes ~TARGET_BYTES of numbered log lines; returns the line count. */
async function generate(file) {
  const handle = await open(file, "w");
  let lines = 0;
  let bytes = 0;
  try {
    while (bytes < TARGET_BYTES) {
      const parts = [];
      for (let i = 0; i < 20_000; i++) {
        lines++;
        parts.push(
          `${lines} 2026-11-29T12:00:00Z INFO request handled path=/api/items/${lines % 997} status=200\n`,
        );
      }
      const block = Buffer.from(parts.join(""));
      await handle.write(block);
      bytes += block.length;
    }
  } finally {
    await handle.close();
  }
  return lines;
}

async function child(file, lines) {
  const { invokeTool } = await import("@tackle/agent-core");
  const { wrapToolDefinition } = await import("@tackle/extensions");
  const { createLocalToolContext } = await import("../dist/local.js");
  const { createReadToolDefinition } = await import("../dist/tools/read.js");
  const dir = file.slice(0, file.lastIndexOf("/"));
  const ctx = createLocalToolContext({ cwd: dir });
  const read = wrapToolDefinition(createReadToolDefinition(), () => ctx);
  // Warm up on a small read so module loading and JIT are in the baseline, not in the measurement.
  await invokeTool(read, { path: "small.txt", limit: 5 });
  globalThis.gc?.();
  const baselineRssKb = process.resourceUsage().maxRSS;
  const start = performance.now();
  const outcome = await invokeTool(read, {
    path: "big.log",
    offset: lines - TAIL_LINES + 1,
    limit: TAIL_LINES,
  });
  const ms = performance.now() - start;
  const peakRssKb = process.resourceUsage().maxRSS;
  const text = outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  const shown = text.split("\n").filter((line) => /^\d+\t/.test(line));
  const ok =
    !outcome.isError && shown.length === TAIL_LINES && shown.at(-1).startsWith(`${lines}\t${lines} `);
  console.log(
    JSON.stringify({
      baselineRssKb,
      peakRssKb,
      ms,
      ok,
      lastLine: shown.at(-1)?.slice(0, 60),
      notice: outcome.isError ? text : null,
    }),
  );
}
