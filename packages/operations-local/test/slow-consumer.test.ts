/**
 * A consumer whose onChunk takes longer than the idle grace (a slow renderer, a busy host) must
 * not make the pipes look idle: after the command's exit, what is still in the pipe (or in
 * flight from the spawn helper) is read, never cut.
 */
import { describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { tempDir } from "./helpers.js";

/** Blocks this thread for `ms`, as a slow synchronous consumer does. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spinning on purpose: the consumer is slow, not waiting
  }
}

const BYTES = 1_000_000;

describe("a slow onChunk consumer", () => {
  for (const spawner of ["direct", "helper"] as const) {
    it(`gets every byte of a command that exits meanwhile (${spawner} spawner)`, async () => {
      const ops = createLocalOperations({ spawner, idleGraceMs: 50 });
      try {
        let received = 0;
        let slowCalls = 0;
        // The shell exits at once; its background child writes everything after that.
        const result = await ops.exec(`head -c ${BYTES} /dev/zero & exit 0`, {
          shell: "sh",
          cwd: await tempDir(),
          onChunk: (chunk) => {
            received += chunk.bytes.length;
            // The first chunks each take three idle graces to handle.
            if (slowCalls++ < 4) busy(150);
          },
        });
        expect(result).toMatchObject({ status: "completed", exitCode: 0 });
        expect(result.stdoutBytes).toBe(BYTES);
        expect(received).toBe(BYTES);
      } finally {
        await ops.dispose?.();
      }
    });
  }
});
