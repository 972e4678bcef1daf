/**
 * Huge or malformed inputs get short, typed, well-formed answers: the input is quoted cut with
 * its length, never repeated whole, and the environment's refusal of a path is an argument
 * error, not an internal failure.
 */
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentTool, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../src/context/create-tool-context.js";
import { DEFAULTS } from "../src/defaults.js";
import { createAllTools } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";

let workspace: string;
let context: ToolContext;
let tools: Record<string, AgentTool>;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "tackle-bounded-errors-")));
  await writeFile(join(workspace, "small.txt"), "one\ntwo\n");
  context = createLocalToolContext({ cwd: workspace });
  tools = createAllTools({ context }) as unknown as Record<string, AgentTool>;
});
afterAll(async () => {
  await context?.dispose();
  await rm(workspace, { recursive: true, force: true });
});

const textOf = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("huge inputs are quoted short, with their length", () => {
  it("a 1 MB path is an argument error the size of a sentence, for reading and for writing", async () => {
    const path = "p".repeat(1_048_576);
    for (const [name, args] of [
      ["read", { path }],
      ["write", { path, content: "x" }],
      ["ls", { path }],
    ] as const) {
      const outcome = await invokeTool(tools[name] as AgentTool, args);
      expect(outcome.errorCode, name).toBe("invalid_arguments");
      expect(textOf(outcome)).toContain("(1,048,576 chars)");
      expect(textOf(outcome).length, name).toBeLessThan(1000);
    }
  });

  it("a pattern or glob longer than a search can be is refused by its schema, naming the limit", async () => {
    const long = "x".repeat(DEFAULTS.searchPatternMaxChars + 1);
    for (const [name, args] of [
      ["grep", { pattern: long }],
      ["grep", { pattern: "one", glob: long }],
      ["find", { pattern: long }],
    ] as const) {
      const outcome = await invokeTool(tools[name] as AgentTool, args);
      expect(outcome.errorCode, name).toBe("invalid_arguments");
      expect(textOf(outcome)).toContain(`of at most ${DEFAULTS.searchPatternMaxChars} characters`);
      expect(textOf(outcome).length).toBeLessThan(1000);
    }
  });

  it("a long pattern that matches nothing is quoted cut in the answer", async () => {
    const pattern = `nothing-${"y".repeat(3000)}`;
    const outcome = await invokeTool(tools.grep as AgentTool, { pattern, glob: `*${"z".repeat(3000)}` });
    expect(outcome.isError).toBe(false);
    expect(textOf(outcome)).toMatch(
      /^No matches for "nothing-y+…" \(3,008 chars\) in \. \(files matching "\*z+…" \(3,001 chars\)\)\.$/,
    );
  });

  it("a path with a lone surrogate comes back well-formed", async () => {
    const outcome = await invokeTool(tools.write as AgentTool, { path: "tail\uDFFF.txt", content: "x" });
    expect(outcome.isError).toBe(false);
    expect(LONE_SURROGATE.test(textOf(outcome))).toBe(false);
  });
});
