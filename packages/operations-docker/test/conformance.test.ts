import { describeOperationsConformance } from "@tackle/operations/conformance";
import { inject } from "vitest";
import { createDockerOperations, type SessionContainer } from "../src/index.js";
import { startTestContainer } from "./session.js";

/**
 * Rounds per writer of the concurrent-writers check: the kit's 1000 when TACKLE_CONFORMANCE_ROUNDS
 * says so, 200 by default (each conditional write is one script run in the container).
 */
const rounds = Number(process.env.TACKLE_CONFORMANCE_ROUNDS ?? 200);

/** A second adapter on the session's container: its own engine client and shells, as a second host process has. */
function another(session: SessionContainer, residentShells: boolean) {
  return createDockerOperations({
    // The same container reference as the session's, so both adapters report one id.
    container: session.id.replace(/^docker:\/\//, ""),
    docker: { socketPath: inject("dockerSocket") },
    residentShells,
  });
}

/** The operations conformance suite, unchanged, on a container of the private engine. */
describeOperationsConformance(
  "docker",
  async () => {
    const ops = await startTestContainer();
    await ops.mkdir("/work");
    return { ops, root: "/work", openAnother: () => another(ops, true) };
  },
  { shells: ["sh", "bash"], slowFactor: 2, concurrentWriteRounds: rounds },
);

/**
 * Again with one exec per file call (no resident shells): both paths must conform. Each call is
 * an exec of its own here (about 150 ms), so the concurrent writers make a quarter of the rounds.
 */
describeOperationsConformance(
  "docker, exec per call",
  async () => {
    const ops = await startTestContainer({ residentShells: false });
    await ops.mkdir("/work");
    return { ops, root: "/work", openAnother: () => another(ops, false) };
  },
  { shells: ["sh", "bash"], slowFactor: 2, concurrentWriteRounds: Math.ceil(rounds / 4) },
);
