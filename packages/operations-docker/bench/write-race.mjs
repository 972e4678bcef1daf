// Measurement: writes racing a directory swapped for a link to outside (the local adapter's
// swapper, ~1 ms per state, run on this machine against a directory bind-mounted into the
// container), through the Docker adapter on a private engine (root needed). Three rounds of 100
// writes `within` the workspace, resident shells and one exec per call; prints how many files
// ended up outside and how each write ended. No thresholds.
// Run: pnpm --filter @tackle/operations-docker build && node packages/operations-docker/bench/write-race.mjs
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOperationError } from "@tackle/operations";
import { startSessionContainer } from "../dist/index.js";
import { importMinimalImage, startPrivateEngine } from "../dist/testing/index.js";

const SWAPPER = fileURLToPath(new URL("../../operations-local/test/fixtures/swap-dir.mjs", import.meta.url));
const WRITES = 100;
const ROUNDS = 3;

const engine = await startPrivateEngine();
const host = await mkdtemp(join(tmpdir(), "tackle-race-"));
try {
  const image = await importMinimalImage(engine);
  for (const residentShells of [true, false]) {
    const session = await startSessionContainer({
      image,
      docker: { socketPath: engine.socketPath },
      binds: [`${host}:/h`],
      residentShells,
    });
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const name = `r${residentShells}-${round}`;
        await mkdir(join(host, name, "ws", "sub"), { recursive: true });
        await mkdir(join(host, name, "out"));
        // The link as the container resolves it.
        const swapper = spawn(process.execPath, [SWAPPER, join(host, name, "ws", "sub"), `/h/${name}/out`], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        await new Promise((resolve) => swapper.stdout.once("data", resolve));
        const outcomes = {};
        for (let i = 0; i < WRITES; i++) {
          let outcome = "written";
          try {
            await session.writeFile(`/h/${name}/ws/sub/f${i}.txt`, `file ${i}\n`, {
              within: `/h/${name}/ws`,
            });
          } catch (error) {
            outcome = isOperationError(error) ? error.code : String(error);
          }
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        }
        const exited = new Promise((resolve) => swapper.once("exit", resolve));
        swapper.kill("SIGKILL");
        await exited;
        const outside = (await readdir(join(host, name, "out"), { recursive: true })).length;
        console.log(
          `resident=${residentShells} round ${round + 1}: ${outside} of ${WRITES} outside; ${JSON.stringify(outcomes)}`,
        );
      }
    } finally {
      await session.dispose();
    }
  }
} finally {
  await engine.stop();
  await rm(host, { recursive: true, force: true });
}
