// Package bench entry (`pnpm --filter @tackle/tools bench`): builds nothing, runs every
// bench/*.bench.mjs file in its own Node process, one after another, and fails when one fails.
// Run `pnpm --filter @tackle/tools build` first: benches import ../dist. Pass names to run a
// subset: `node bench/run.mjs read-tail edit`.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((name) => name.endsWith(".bench.mjs"))
  .filter((name) => wanted.length === 0 || wanted.some((w) => name.startsWith(w)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, [join(here, file)], { stdio: "inherit" });
  if (result.status !== 0) {
    failed++;
    console.log(`${file} failed (exit ${result.status ?? result.signal})`);
  }
}
console.log(`\n${files.length - failed}/${files.length} benchmarks ran.`);
process.exit(failed === 0 ? 0 : 1);
