import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { describe, expect, it } from "vitest";
import { createSshOperations } from "../src/index.js";
import { startSshServer } from "./support/ssh-server.mjs";

/** The sshd of these tests runs on this machine: bubblewrap is the remote host's when it is ours. */
const supported = process.platform === "linux" && existsSync("/usr/bin/bwrap");

/**
 * The conformance suite, unchanged, with every command in bubblewrap on the remote host
 * (writable: the suite's root only): a sandbox must not change what exec promises (exit codes,
 * output, cwd, env, timeout and abort ending the whole tree, onSpawn ids).
 */
describe.runIf(supported)("ssh, sandboxed", () => {
  describeOperationsConformance(
    "ssh, sandboxed",
    async () => {
      const server = await startSshServer();
      const root = `${server.dir}/root`;
      const ops = createSshOperations({ ...server.connectOptions, sandbox: { writable: [root] } });
      await ops.connect();
      await ops.mkdir(root);
      return {
        ops,
        root,
        openAnother: async () => {
          const second = createSshOperations({ ...server.connectOptions, sandbox: { writable: [root] } });
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
    { search: false, slowFactor: 3, concurrentWriteRounds: 50 },
  );

  it("the sandboxed run above really is sandboxed (each exec reports bubblewrap)", async () => {
    const server = await startSshServer();
    const ops = createSshOperations({ ...server.connectOptions, sandbox: { writable: [server.dir] } });
    try {
      const result = await ops.exec("true", { shell: "sh", cwd: server.dir });
      expect(result.sandbox?.mechanism).toBe("bubblewrap");
    } finally {
      await ops.dispose();
      await server.stop();
    }
  });
});
