import { existsSync } from "node:fs";
import { describeSandboxEscapeCorpus } from "@tackle/tools/testing";
import { describe } from "vitest";
import { createSshOperations } from "../src/index.js";
import { startSshServer } from "./support/ssh-server.mjs";

// The tools' escape corpus through the bash tool over SSH, every command in bubblewrap on the
// remote host. The test's sshd runs on this machine, so the corpus checks the outcome from
// outside (host files, the test's own server and processes) as it does for the local adapter.
// The allow-list attempts are left out: that proxy runs only with the local adapter.
const supported = process.platform === "linux" && existsSync("/usr/bin/bwrap");

describe.runIf(supported)("ssh", () => {
  describeSandboxEscapeCorpus("ssh", {
    allowList: false,
    makeOperations: async (home) => {
      const server = await startSshServer({ env: { HOME: home } });
      const operations = createSshOperations(server.connectOptions);
      return {
        operations,
        dispose: async () => {
          await operations.dispose();
          await server.stop();
        },
      };
    },
  });
});
