import { createToolContext } from "@tackle/tools";
import { describeToolsConformance } from "@tackle/tools/testing";
import { afterAll, beforeAll } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

/** The tools suite, unchanged, with every tool working on a real sshd through the adapter. */
let server: TestSshServer | undefined;
let ops: SshOperations | undefined;
/** A second connection to the same server: two adapters in one host. */
let second: SshOperations | undefined;

beforeAll(async () => {
  server = await startSshServer();
  ops = createSshOperations(server.connectOptions);
  second = createSshOperations(server.connectOptions);
  await Promise.all([ops.connect(), second.connect()]);
});

afterAll(async () => {
  await second?.dispose();
  await ops?.dispose();
  await server?.stop();
});

describeToolsConformance(
  "ssh",
  (cwd) => {
    if (!ops) throw new Error("sshd did not start: see the beforeAll error");
    return createToolContext({ cwd, operations: ops });
  },
  {
    // Each edit is SFTP calls plus a remote script: 1000 per writer when TACKLE_CONFORMANCE_ROUNDS says so.
    concurrentEditRounds: Number(process.env.TACKLE_CONFORMANCE_ROUNDS ?? 100),
    makeSecondContext: (cwd) => {
      if (!second) throw new Error("sshd did not start: see the beforeAll error");
      return createToolContext({ cwd, operations: second });
    },
  },
);
