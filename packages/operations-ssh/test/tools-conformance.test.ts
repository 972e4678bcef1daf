import { createToolContext } from "@tackle/tools";
import { describeToolsConformance } from "@tackle/tools/testing";
import { afterAll, beforeAll } from "vitest";
import { createSshOperations, type SshOperations } from "../src/index.js";
import { startSshServer, type TestSshServer } from "./support/ssh-server.mjs";

/** The tools suite, unchanged, with every tool working on a real sshd through the adapter. */
let server: TestSshServer | undefined;
let ops: SshOperations | undefined;

beforeAll(async () => {
  server = await startSshServer();
  ops = createSshOperations(server.connectOptions);
  await ops.connect();
});

afterAll(async () => {
  await ops?.dispose();
  await server?.stop();
});

describeToolsConformance("ssh", (cwd) => {
  if (!ops) throw new Error("sshd did not start: see the beforeAll error");
  return createToolContext({ cwd, operations: ops });
});
