import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeOperationsConformance } from "@tackle/operations/conformance";
import { expect, it } from "vitest";
import { createLocalOperations } from "../src/index.js";

// The same suite as conformance.test.ts, every command in the sandbox (writable: the suite's
// root only): a sandbox must not change what exec promises (exit codes, output, cwd, env,
// timeout and abort ending the whole tree, onSpawn ids).
describeOperationsConformance("local, sandboxed", async () => {
  const root = await realpath(await mkdtemp(join(tmpdir(), "tackle-conformance-sandbox-")));
  return {
    ops: createLocalOperations({ sandbox: { writable: [root] } }),
    root,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
});

it("the sandboxed run above really is sandboxed (each exec reports bubblewrap)", async () => {
  const root = await realpath(await mkdtemp(join(tmpdir(), "tackle-conformance-sandbox-")));
  const ops = createLocalOperations({ sandbox: { writable: [root] } });
  try {
    const result = await ops.exec("true", { shell: "sh", cwd: root });
    expect(result.sandbox?.mechanism).toBe("bubblewrap");
  } finally {
    await ops.dispose?.();
    await rm(root, { recursive: true, force: true });
  }
});
