/**
 * Tackle's tools, unchanged, on `Operations` over a sandbox session: the tools conformance suite
 * on the round trip (local -> Tackle's session -> the adapter, "posix" mode).
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalOperations } from "@tackle/operations-local";
import { createToolContext } from "@tackle/tools";
import { describeToolsConformance } from "@tackle/tools/testing";
import { afterAll, beforeAll } from "vitest";
import {
  createOperationsSandboxSession,
  createSandboxSessionOperations,
  type SandboxSessionOperations,
} from "../src/index.js";

let base: string;
let scratch: string;
let first: SandboxSessionOperations;
let second: SandboxSessionOperations;

/** An adapter over a fresh session on the local machine; both adapters report one id. */
function open(): SandboxSessionOperations {
  const session = createOperationsSandboxSession({
    operations: createLocalOperations(),
    cwd: base,
    roots: [base, scratch],
  });
  return createSandboxSessionOperations(session, { tempDir: scratch, id: "ai-sandbox://tools-round-trip" });
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "tackle-ai-sandbox-tools-")));
  scratch = await realpath(await mkdtemp(join(tmpdir(), "tackle-ai-sandbox-tools-scratch-")));
  first = open();
  second = open();
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

describeToolsConformance(
  "sandbox session over local Operations",
  (cwd) => createToolContext({ cwd, operations: first }),
  {
    // Read when the suite starts, after the beforeAll above made it: inside the session's roots.
    get baseDir() {
      return base;
    },
    concurrentEditRounds: 50,
    makeSecondContext: (cwd) => createToolContext({ cwd, operations: second }),
  },
);
