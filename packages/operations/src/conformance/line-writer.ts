/**
 * The writer of the concurrent-writers check, on its own (no vitest), so a second process can run
 * it too: it appends its numbers to its own line of a shared file with read, change, conditional
 * write, and starts again from a fresh read whenever the write reports `changed`.
 */
import { createHash } from "node:crypto";
import { isOperationError } from "../errors.js";
import type { Operations } from "../types.js";

/** What one writer did. */
export interface LineWriterReport {
  /** Writes that succeeded (one per round). */
  written: number;
  /** Writes refused with `changed` (another writer came first), each followed by a fresh read. */
  conflicts: number;
}

/** The line of writer `writer` in a file made by {@link lineWriterFile}: `w<writer>:` and its numbers. */
export function lineOf(text: string, writer: string): string | undefined {
  return text.split("\n").find((line) => line.startsWith(`w${writer}:`));
}

/** The starting content for `writers`: one line per writer, with no numbers yet. */
export function lineWriterFile(writers: readonly string[]): string {
  return `${writers.map((writer) => `w${writer}:`).join("\n")}\n`;
}

/**
 * The rounds of `writer` missing from its line in `text` after `rounds` rounds (a lost write
 * leaves a gap), plus `-1` when the line holds anything else: `[]` when no write was lost.
 */
export function lostRounds(text: string, writer: string, rounds: number): number[] {
  const seen = (lineOf(text, writer) ?? "").slice(`w${writer}:`.length).trim();
  const numbers = seen === "" ? [] : seen.split(" ").map(Number);
  const present = new Set(numbers);
  const lost: number[] = [];
  for (let round = 1; round <= rounds; round++) if (!present.has(round)) lost.push(round);
  const inOrder = numbers.every((number, index) => number === index + 1);
  return inOrder || lost.length > 0 ? lost : [-1];
}

/**
 * Appends ` <round>` to the line of `writer` in `path`, for round 1 to `rounds`, each with
 * `writeFile(..., { expect: { sha256 } })` of the bytes it read. A lost write (another writer's
 * write over a stale read) shows as a missing number in some line: {@link lostRounds}.
 */
export async function runLineWriter(
  ops: Pick<Operations, "readFile" | "writeFile">,
  path: string,
  writer: string,
  rounds: number,
): Promise<LineWriterReport> {
  const report: LineWriterReport = { written: 0, conflicts: 0 };
  const decoder = new TextDecoder();
  for (let round = 1; round <= rounds; ) {
    const bytes = await ops.readFile(path);
    const text = decoder.decode(bytes);
    const line = lineOf(text, writer);
    if (line === undefined) throw new Error(`writer ${writer}: its line is gone from ${path}`);
    const next = text.replace(line, `${line} ${round}`);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    try {
      await ops.writeFile(path, next, { expect: { sha256 } });
      report.written++;
      round++;
    } catch (error) {
      if (!isOperationError(error, "changed")) throw error;
      report.conflicts++;
    }
  }
  return report;
}
