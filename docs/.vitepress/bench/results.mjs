// The benchmark results the site charts: JSON lines in the format of the repository's bench
// reporter ("tackle-bench/1", documented in docs/performance.md), one measurement per line.
import fs from "node:fs";
import path from "node:path";

/** The one line format this reader understands. */
export const BENCH_SCHEMA = "tackle-bench/1";

/**
 * Parses JSON lines into measurements; a line of another schema or without the fields a chart
 * needs is an error naming the line (a silently dropped measurement would be a wrong chart).
 * @param {string} text
 * @param {string} source a name for messages
 */
export function parseResults(text, source) {
  const records = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const record = JSON.parse(line);
    const where = `${source}:${index + 1}`;
    if (record.schema !== BENCH_SCHEMA)
      throw new Error(`${where}: schema ${record.schema}, expected ${BENCH_SCHEMA}`);
    for (const field of ["package", "bench", "case", "metric", "unit"])
      if (typeof record[field] !== "string") throw new Error(`${where}: ${field} is not a string`);
    if (typeof record.value !== "number") throw new Error(`${where}: value is not a number`);
    records.push(record);
  }
  return records;
}

/** The result files the bench reporter writes: `packages/<pkg>/bench/results/<bench>.jsonl`. */
export function resultFiles(repoRoot) {
  const packages = path.join(repoRoot, "packages");
  const files = [];
  for (const pkg of fs.readdirSync(packages).sort()) {
    const dir = path.join(packages, pkg, "bench", "results");
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir).sort())
      if (name.endsWith(".jsonl")) files.push(path.join(dir, name));
  }
  return files;
}
