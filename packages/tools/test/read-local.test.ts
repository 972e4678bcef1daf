/** read behaviour that needs local-only fixtures (a FIFO); the rest is in the conformance suite. */
import { execFileSync } from "node:child_process";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalToolContext } from "../src/local.js";
import { createReadToolDefinition } from "../src/tools/read.js";

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-read-local-")));
  execFileSync("mkfifo", [join(dir, "pipe")]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("read on local files", () => {
  it("refuses a FIFO instead of blocking on it", async () => {
    const ctx = createLocalToolContext({ cwd: dir });
    const read = wrapToolDefinition(createReadToolDefinition(), () => ctx);
    const out = await invokeTool(read, { path: "pipe" });
    expect(out).toMatchObject({ isError: true, errorCode: "special_file" });
    expect(out.content[0]).toMatchObject({
      text: "pipe is a FIFO, socket or device, not a regular file; tools never open those. Use ls to see what it is.",
    });
  });
});
