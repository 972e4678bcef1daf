/**
 * The AI SDK's session on Tackle's SSH adapter against a real sshd: the same behaviour checks as
 * on the local adapter and on the AI SDK's own just-bash session, and the workspace policy.
 */
import { isToolError } from "@tackle/agent-core";
import { createSshOperations } from "@tackle/operations-ssh";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSshServer, type TestSshServer } from "../../operations-ssh/test/support/ssh-server.mjs";
import { createOperationsSandboxSession, type SandboxSession } from "../src/index.js";
import { describeSessionChecks } from "./support/session-checks.js";

let server: TestSshServer | undefined;
let ops: ReturnType<typeof createSshOperations> | undefined;
let session: SandboxSession;
let base: string;

beforeAll(async () => {
  server = await startSshServer();
  ops = createSshOperations({ ...server.connectOptions });
  await ops.connect();
  base = `${server.dir}/workspace`;
  await ops.mkdir(base);
  session = createOperationsSandboxSession({ operations: ops, cwd: base });
}, 120_000);

afterAll(async () => {
  await ops?.dispose();
  await server?.stop();
});

describeSessionChecks("Tackle's session over SSH Operations", () => ({ session, base }));

it("over SSH too, a path outside the workspace is refused before anything is read", async () => {
  if (!server) throw new Error("sshd did not start: see beforeAll");
  await expect(session.readTextFile({ path: `${server.dir}/authorized_keys` })).rejects.toSatisfy((error) =>
    isToolError(error, "outside_workspace"),
  );
});
