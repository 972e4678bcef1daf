/**
 * A command that exits at once, with its output going straight to a file (no pipe whose end
 * would keep the call waiting): its exit must be observed whichever spawner started it. The
 * direct spawner once closed the output file's descriptors (an await) between the 'spawn' event
 * and the caller attaching its exit listener, and under load a call hung for ever.
 */
import { describe, expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";
import { tempDir } from "./helpers.js";

const ROUNDS = 150;

describe("a command exiting at once on the output-file fast path", () => {
  for (const spawner of ["direct", "helper"] as const) {
    it(`is observed every time (${ROUNDS} calls, ${spawner} spawner)`, async () => {
      const ops = createLocalOperations({ spawner });
      const cwd = await tempDir();
      try {
        for (let i = 0; i < ROUNDS; i++) {
          const result = await ops.exec("exit 4", {
            shell: "sh",
            cwd,
            outputPath: `${cwd}/out.log`,
            streamChunks: false,
          });
          expect(result).toMatchObject({ status: "failed", exitCode: 4 });
        }
      } finally {
        await ops.dispose?.();
      }
    });
  }
});
