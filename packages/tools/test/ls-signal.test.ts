// ls describes a directory's entries concurrently; the caller's signal must not collect one
// abort listener per call in flight (Node warns of a leak past ten: MaxListenersExceededWarning,
// seen on the stderr of an MCP server serving ls).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTool } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-ls-signal-"));
  for (let i = 0; i < 40; i++) await writeFile(join(dir, `file-${i}.txt`), "x");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("ls with the caller's signal", () => {
  it("lists a directory of 40 files without a MaxListenersExceededWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    const context = createLocalToolContext({ cwd: dir });
    try {
      const controller = new AbortController();
      const outcome = await invokeTool(
        createTool("ls", { context }),
        { path: "." },
        { signal: controller.signal },
      );
      if (outcome.isError) throw new Error(`ls failed: ${JSON.stringify(outcome.content)}`);
      expect(outcome.details.entries).toHaveLength(40);
      // Node emits the warning on a later tick of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((text) => text.startsWith("MaxListenersExceededWarning"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await context.dispose();
    }
  });

  it("still stops when the caller's signal fires", async () => {
    const context = createLocalToolContext({ cwd: dir });
    try {
      const controller = new AbortController();
      controller.abort();
      const outcome = await invokeTool(
        createTool("ls", { context }),
        { path: "." },
        { signal: controller.signal },
      );
      expect(outcome.isError).toBe(true);
      expect(outcome.errorCode).toBe("aborted");
    } finally {
      await context.dispose();
    }
  });
});
