/**
 * Processes a command under an output budget costs on the local adapter's fast path (the output
 * file written by the capper, no chunks streamed): the capper and the command, and the assembly
 * of the tail only when the output went past the head. Each spawn blocks this process for a
 * time that grows with its size, so a short output must not pay a third.
 */
import { createHook } from "node:async_hooks";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { outputHeadBytes } from "@tackle/operations";
import { describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { tempDir } from "./helpers.js";

// Counts the spawns of this process: the direct spawner (the helper would spawn in its own).
const ops = createLocalOperations({ spawner: "direct" });
const LIMIT = 64 * 1024;

/** Child processes this process started while `run` ran (each spawn makes one PROCESSWRAP). */
async function spawnsDuring<T>(run: () => Promise<T>): Promise<{ value: T; spawns: number }> {
  let spawns = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROCESSWRAP") spawns += 1;
    },
  });
  hook.enable();
  try {
    return { value: await run(), spawns };
  } finally {
    hook.disable();
  }
}

/** Runs `command` with its output only to `out.log` in a fresh directory, under the budget. */
async function runBudgeted(command: string) {
  const cwd = await tempDir();
  const output = join(cwd, "out.log");
  const run = await spawnsDuring(() =>
    ops.exec(command, { shell: "sh", cwd, outputPath: output, outputLimitBytes: LIMIT, streamChunks: false }),
  );
  return { ...run, output };
}

describe("local exec under an output budget, output to a file only", () => {
  it("a short output costs the capper and the command, no assembly process", async () => {
    const { value: result, spawns, output } = await runBudgeted("echo short");
    expect(result.exitCode).toBe(0);
    expect(readFileSync(output, "utf8")).toBe("short\n");
    expect(result.outputCut).toBeUndefined();
    expect(spawns).toBe(2);
  });

  it("an output past the head is still assembled: head, marker and tail", async () => {
    const { value: result, spawns } = await runBudgeted(`head -c ${4 * LIMIT} /dev/zero | tr '\\0' a`);
    expect(result.exitCode).toBe(0);
    expect(result.outputCut?.headBytes).toBe(outputHeadBytes(LIMIT));
    expect(result.outputCut?.droppedBytes).toBeGreaterThan(0);
    expect(spawns).toBe(3);
  });
});
