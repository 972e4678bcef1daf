// Writes docs/benchmarks/results.jsonl, the committed snapshot the Benchmarks page is drawn from,
// out of the result files of the last `pnpm bench` (packages/*/bench/results/*.jsonl, not
// committed). Usage: `pnpm --filter tackle-docs bench:snapshot [repository root]`; the root
// defaults to this repository (another checkout's results can be taken as they are).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseResults, resultFiles } from "./results.mjs";

const docsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const from = path.resolve(process.argv[2] ?? path.dirname(docsDir));
const files = resultFiles(from);
if (files.length === 0) {
  console.error(`no bench results under ${from}/packages/*/bench/results: run \`pnpm bench\` first`);
  process.exit(1);
}
const lines = [];
for (const file of files) {
  for (const record of parseResults(fs.readFileSync(file, "utf8"), path.relative(from, file)))
    lines.push(JSON.stringify(record));
}
const out = path.join(docsDir, "benchmarks", "results.jsonl");
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${lines.join("\n")}\n`);
console.log(`${path.relative(process.cwd(), out)}: ${lines.length} measurements from ${files.length} files`);
