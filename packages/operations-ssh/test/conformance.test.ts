import { rm } from "node:fs/promises";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { rgPath } from "@vscode/ripgrep";
import { createSshOperations } from "../src/index.js";
import { startSshServer } from "./support/ssh-server.mjs";

/**
 * Rounds per writer of the concurrent-writers check: the kit's 1000 when TACKLE_CONFORMANCE_ROUNDS
 * says so, 200 by default (each conditional write is an SFTP upload plus a remote script).
 */
const rounds = Number(process.env.TACKLE_CONFORMANCE_ROUNDS ?? 200);

/**
 * The conformance suite, unchanged, on a real sshd. Twice: once with ripgrep on the remote PATH
 * (native `search`, found by the adapter's probe), once without (no `search`, so the tools'
 * portable fallback takes over).
 */
for (const withRipgrep of [true, false]) {
  describeOperationsConformance(
    `ssh (${withRipgrep ? "remote rg" : "no rg"})`,
    async () => {
      const server = await startSshServer(withRipgrep ? { tools: [rgPath] } : {});
      const ops = createSshOperations(server.connectOptions);
      await ops.connect();
      const root = `${server.dir}/root`;
      await ops.mkdir(root);
      return {
        ops,
        root,
        // A second connection: its own SFTP server and shells on the host, as a second process has.
        openAnother: async () => {
          const second = createSshOperations(server.connectOptions);
          await second.connect();
          return second;
        },
        cleanup: async () => {
          await ops.dispose();
          await rm(root, { recursive: true, force: true });
          await server.stop();
        },
      };
    },
    { search: withRipgrep, slowFactor: 3, concurrentWriteRounds: rounds },
  );
}
