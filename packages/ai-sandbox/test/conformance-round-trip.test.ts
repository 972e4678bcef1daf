/**
 * The round trip: Tackle's local adapter, seen through Tackle's sandbox session, seen through
 * the adapter over sandbox sessions, must still be a whole `Operations`: the conformance kit,
 * every check but native search (the adapter offers none; the tools walk instead).
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { createLocalOperations } from "@tackle/operations-local";
import { expect } from "vitest";
import { createOperationsSandboxSession, createSandboxSessionOperations } from "../src/index.js";

describeOperationsConformance(
  "sandbox session over local Operations, back to Operations",
  async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), "tackle-ai-sandbox-conformance-")));
    const scratch = await realpath(await mkdtemp(join(tmpdir(), "tackle-ai-sandbox-scratch-")));
    const local = createLocalOperations();
    const open = async () => {
      const session = createOperationsSandboxSession({
        operations: local,
        cwd: root,
        roots: [root, scratch],
      });
      const ops = createSandboxSessionOperations(session, {
        tempDir: scratch,
        id: "ai-sandbox://round-trip",
      });
      expect(await ops.connect()).toBe("posix");
      return ops;
    };
    return {
      ops: await open(),
      root,
      openAnother: open,
      cleanup: async () => {
        await rm(root, { recursive: true, force: true });
        await rm(scratch, { recursive: true, force: true });
      },
    };
  },
  { search: false, concurrentWriteRounds: 200 },
);
