/**
 * A slow call never starves the others: with a pathological call running (a search through
 * lines of many megabytes, a huge malformed argument, a command printing without end), a read
 * of a small file started next to it answers first. How long the read and the event loop wait
 * is measured by the bounds benchmark (`read-beside`, `validation`), not asserted here: a
 * timing bound in a test fails on a loaded machine, or is too loose to catch anything.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentTool, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../src/context/create-tool-context.js";
import { createAllTools } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";

let workspace: string;
let context: ToolContext;
let tools: Record<string, AgentTool>;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "tackle-bounded-calls-")));
  await writeFile(join(workspace, "small.txt"), "one\ntwo\nthree\n");
  await mkdir(join(workspace, "huge"));
  const line = Buffer.alloc(8 * 1024 * 1024 + 1, "x");
  line[line.length - 1] = 0x0a;
  for (let i = 0; i < 6; i++) await writeFile(join(workspace, "huge", `line-${i}.txt`), line);
  context = createLocalToolContext({ cwd: workspace });
  tools = createAllTools({
    context,
    tools: { bash: { maxOutputBytes: 64 * 1024 * 1024 } },
  }) as unknown as Record<string, AgentTool>;
}, 60_000);
afterAll(async () => {
  await context?.dispose();
  await rm(workspace, { recursive: true, force: true });
});

/** Starts `slow`, then a read of small.txt; says which finished first. */
async function readBeside(slow: () => Promise<ToolOutcome>) {
  const order: string[] = [];
  const pathological = slow().then((outcome) => {
    order.push("slow");
    return outcome;
  });
  const read = invokeTool(tools.read as AgentTool, { path: "small.txt" }).then((outcome) => {
    order.push("read");
    return outcome;
  });
  const [slowOutcome, readOutcome] = await Promise.all([pathological, read]);
  return { order, slowOutcome, readOutcome };
}

describe("a slow call never starves the others", () => {
  it("grep through six files of one 8 MB matching line each: a small read answers first", async () => {
    const { order, slowOutcome, readOutcome } = await readBeside(() =>
      invokeTool(tools.grep as AgentTool, { pattern: "x", path: "huge" }),
    );
    expect(readOutcome.isError).toBe(false);
    expect(slowOutcome.isError).toBe(false);
    expect(order[0]).toBe("read");
  }, 60_000);

  it("a command printing far past its output budget: a small read answers first", async () => {
    const { order, slowOutcome } = await readBeside(() =>
      invokeTool(tools.bash as AgentTool, {
        command: "yes 0123456789abcdef | head -c 268435456",
        timeout: 60,
      }),
    );
    expect(slowOutcome.isError).toBe(false);
    expect((slowOutcome.details as { run?: { budgetCut?: unknown } }).run?.budgetCut).toBeDefined();
    expect(order[0]).toBe("read");
  }, 60_000);

  it("an edit with 60,000 numbers for edits: validated without a long block, a read right after answers", async () => {
    const edits = Array.from({ length: 60_000 }, (_, i) => i);
    const { slowOutcome, readOutcome } = await readBeside(() =>
      invokeTool(tools.edit as AgentTool, { path: "small.txt", edits }),
    );
    expect(slowOutcome.errorCode).toBe("invalid_arguments");
    expect(readOutcome.isError).toBe(false);
  }, 60_000);
});
