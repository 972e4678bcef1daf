/**
 * Refusals say what to send instead. Each case here once only stated the problem ("timeout must
 * be a positive number", "realpath failed (Invalid argument)", a glob error blamed on the path)
 * or escaped as an internal `execution_failed`; each now is `invalid_arguments` whose text names
 * the next step with the numbers in force.
 */
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../src/context/create-tool-context.js";
import { DEFAULTS } from "../src/defaults.js";
import { createAllTools, type ToolSet } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";
import { namesNextStep } from "./support/next-step.js";

let dir: string;
let context: ToolContext;
let tools: ToolSet;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-refusals-")));
  await writeFile(join(dir, "a.txt"), "alpha\nbeta\n");
  context = createLocalToolContext({ cwd: dir });
  tools = createAllTools({ context });
});
afterAll(async () => {
  await context.dispose();
  await rm(dir, { recursive: true, force: true });
});

const textOf = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

/** The outcome must be an `invalid_arguments` refusal naming a next step; returns its text. */
function refusal(outcome: ToolOutcome): string {
  const text = textOf(outcome);
  expect(outcome.errorCode, text).toBe("invalid_arguments");
  expect(namesNextStep(text), text).toBe(true);
  return text;
}

describe("refusals name what to send instead", () => {
  it("bash: a timeout of 0 or less states the range and the default", async () => {
    const text = refusal(await invokeTool(tools.bash, { command: "true", timeout: -1 }));
    expect(text).toContain(`at most ${DEFAULTS.shellMaxTimeoutSeconds}`);
    expect(text).toContain(`default of ${DEFAULTS.shellTimeoutSeconds}`);
  });

  it("bash: a readyPattern too large to compile is refused, not an internal failure", async () => {
    const outcome = await invokeTool(tools.bash, {
      command: "true",
      background: true,
      readyPattern: "x".repeat(1_200_000),
    });
    const text = refusal(outcome);
    expect(text).toContain("Send readyPattern");
    expect(text.length).toBeLessThan(2000);
  });

  it("grep: an invalid regular expression says to fix it or send literal=true", async () => {
    const text = refusal(await invokeTool(tools.grep, { pattern: "foo(" }));
    expect(text).toContain("Send a valid regular expression");
    expect(text).toContain("literal=true");
  });

  it("grep: with a glob, a refusal names both and what each should look like", async () => {
    const text = refusal(await invokeTool(tools.grep, { pattern: "alpha", glob: "[" }));
    expect(text).toContain('glob "["');
    expect(text).toContain("send glob as a glob such as '*.ts'");
  });

  it("find: an invalid glob is blamed on the pattern, not the path", async () => {
    const text = refusal(await invokeTool(tools.find, { pattern: "[" }));
    expect(text).toMatch(/^Invalid glob "\["/);
    expect(text).toContain("Send pattern as a glob");
    expect(text).not.toContain("Send a valid path");
  });

  it("grep and find: a NUL byte in a pattern or glob is refused before any process starts", async () => {
    const texts = [
      refusal(await invokeTool(tools.grep, { pattern: "a\u0000b" })),
      refusal(await invokeTool(tools.grep, { pattern: "a", glob: "*\u0000" })),
      refusal(await invokeTool(tools.find, { pattern: "*\u0000.ts" })),
    ];
    for (const text of texts) expect(text).toContain("NUL byte");
  });

  it("a path with a name longer than any file system stores states the limit", async () => {
    const name = "x".repeat(DEFAULTS.pathNameMaxBytes + 1);
    for (const [tool, args] of [
      [tools.read, { path: name }],
      [tools.write, { path: `sub/${name}/a.txt`, content: "x" }],
      [tools.ls, { path: "é".repeat(200) }],
    ] as const) {
      const text = refusal(await invokeTool(tool, args));
      expect(text).toContain(`at most ${DEFAULTS.pathNameMaxBytes} bytes each`);
      expect(text).not.toContain("realpath");
    }
    // A name at the limit is a name: it is simply not there.
    const atLimit = await invokeTool(tools.read, { path: "x".repeat(DEFAULTS.pathNameMaxBytes) });
    expect(atLimit.errorCode).toBe("not_found");
  });

  it("a whole path at the kernel's limit is refused with that limit", async () => {
    const path = Array.from({ length: 500 }, () => "abcdefghi").join("/");
    const text = refusal(await invokeTool(tools.read, { path }));
    expect(text).toContain(`below ${DEFAULTS.pathMaxBytes} bytes`);
  });

  it("jobs: an unknown id is quoted and cut, so the next step survives a huge id", async () => {
    const outcome = await invokeTool(tools.jobs, { action: "tail", id: "line\n".repeat(20_000) });
    expect(outcome.errorCode).toBe("not_found");
    expect(textOf(outcome)).toContain("Use action=list");
  });
});
