// Measurement: writes racing a directory swapped for a link to outside (the local adapter's
// swapper, ~1 ms per state), over SSH to a private sshd on loopback. Three rounds of 100 writes
// with `within` the workspace and three without; prints, per round, how many files ended up
// outside and how each write ended. No thresholds: SFTP has no openat, so a window remains
// (docs/write-safety.md); this shows how wide it is.
// Run: pnpm --filter @tackle/operations-ssh build && node packages/operations-ssh/bench/write-race.mjs
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isOperationError } from "@tackle/operations";
import { createSshOperations } from "../dist/index.js";
import { startSshServer } from "../test/support/ssh-server.mjs";

const SWAPPER = fileURLToPath(new URL("../../operations-local/test/fixtures/swap-dir.mjs", import.meta.url));
const WRITES = 100;
const ROUNDS = 3;

const server = await startSshServer();
const ops = createSshOperations({
  ...server.connectOptions,
  ripgrep: false,
});
try {
  for (const within of [true, false]) {
    for (let round = 0; round < ROUNDS; round++) {
      const root = await mkdtemp(join(server.dir, "ws-"));
      const outside = await mkdtemp(join(server.dir, "out-"));
      const sub = join(root, "sub");
      await mkdir(sub);
      const swapper = spawn(process.execPath, [SWAPPER, sub, outside], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      await new Promise((resolve) => swapper.stdout.once("data", resolve));
      const outcomes = {};
      for (let i = 0; i < WRITES; i++) {
        let outcome = "written";
        try {
          await ops.writeFile(join(sub, `f${i}.txt`), `file ${i}\n`, within ? { within: root } : {});
        } catch (error) {
          outcome = isOperationError(error) ? error.code : String(error);
        }
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
      const exited = new Promise((resolve) => swapper.once("exit", resolve));
      swapper.kill("SIGKILL");
      await exited;
      const landedOutside = (await readdir(outside, { recursive: true })).length;
      console.log(
        `within=${within} round ${round + 1}: ${landedOutside} of ${WRITES} outside; ${JSON.stringify(outcomes)}`,
      );
    }
  }
} finally {
  await ops.dispose();
  await server.stop();
}
