import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { lineWriterFile, lostRounds, runLineWriter } from "@tackle/operations/conformance/line-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";

const LINE_WRITER = fileURLToPath(new URL("./fixtures/line-writer.mjs", import.meta.url));
/** Rounds per writer: the kit's 1000 unless TACKLE_CONFORMANCE_ROUNDS says otherwise. */
const ROUNDS = Number(process.env.TACKLE_CONFORMANCE_ROUNDS ?? 1000);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-two-process-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("conditional writes from two processes", () => {
  it(
    `this process and a child process, ${ROUNDS} read-change-write rounds each on one file: no write lost`,
    async () => {
      const path = join(dir, "shared.txt");
      await writeFile(path, lineWriterFile(["a", "b"]));
      const started = Date.now();
      const child = promisify(execFile)(process.execPath, [LINE_WRITER, path, "b", String(ROUNDS)]);
      const [mine, theirs] = await Promise.all([
        runLineWriter(createLocalOperations(), path, "a", ROUNDS),
        child,
      ]);
      const final = await readFile(path, "utf8");
      expect({ a: lostRounds(final, "a", ROUNDS), b: lostRounds(final, "b", ROUNDS) }).toEqual({
        a: [],
        b: [],
      });
      const report = JSON.parse(theirs.stdout) as { written: number; conflicts: number };
      expect([mine.written, report.written]).toEqual([ROUNDS, ROUNDS]);
      console.info(
        `[two processes] ${ROUNDS} + ${ROUNDS} conditional writes in ${Date.now() - started} ms, ${mine.conflicts} + ${report.conflicts} refused as changed and redone`,
      );
    },
    Math.max(60_000, ROUNDS * 200),
  );
});
