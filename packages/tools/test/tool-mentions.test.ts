/**
 * A model told to use a tool it was not given tries it anyway (bash's results said "use the jobs
 * tool" while no set held jobs). Every tool the model-facing text of a set names is in that set.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TSchema } from "@sinclair/typebox";
import { type AnyAgentTool, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import { definitionOf } from "@tackle/extensions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext } from "../src/context/create-tool-context.js";
import {
  ALL_TOOL_NAMES,
  createAllTools,
  createAvailableTools,
  createCodingTools,
  createReadOnlyTools,
  createTools,
} from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";

const NAMES = ALL_TOOL_NAMES.join("|");
/** "use ls", "Use read with", "with bash", "call grep", "the jobs tool", "find tool". */
const MENTION = new RegExp(
  `\\b(?:(?:[Uu]se|with|[Cc]all|[Tt]ry)\\s+(?:the\\s+)?(${NAMES})\\b|\\b(${NAMES})\\s+tool\\b)`,
  "g",
);

/** Tool names mentioned in `text` as tools the model should call. */
function mentionedTools(text: string): string[] {
  return [...text.matchAll(MENTION)].map((match) => (match[1] ?? match[2]) as string);
}

/** The description, prompt snippet, guidelines and parameter descriptions of a bound tool. */
function staticText(tool: AnyAgentTool): string[] {
  const definition = definitionOf(tool);
  const texts = [tool.description, definition?.promptSnippet ?? "", ...(definition?.promptGuidelines ?? [])];
  const walk = (schema: TSchema) => {
    if (typeof schema.description === "string") texts.push(schema.description);
    for (const child of Object.values((schema.properties ?? {}) as Record<string, TSchema>)) walk(child);
    if (schema.items) walk(schema.items as TSchema);
  };
  walk(tool.parameters);
  return texts;
}

const textOf = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

let dir: string;
let context: ToolContext;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-mentions-")));
  context = createLocalToolContext({ cwd: dir });
});
afterAll(async () => {
  await context.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe("tools named in model-facing text", () => {
  const sets: Record<string, () => Promise<Record<string, AnyAgentTool>>> = {
    createCodingTools: async () => createCodingTools({ context }),
    createReadOnlyTools: async () => createReadOnlyTools({ context }),
    createAllTools: async () => createAllTools({ context }),
    createAvailableTools: async () =>
      createAvailableTools({ context }) as Promise<Record<string, AnyAgentTool>>,
    "createTools bash": async () => createTools({ context, names: ["bash", "read"] }),
    "createTools powershell": async () => createTools({ context, names: ["powershell", "read"] }),
  };

  for (const [name, make] of Object.entries(sets)) {
    it(`${name}: descriptions and parameters name only tools of the set`, async () => {
      const tools = await make();
      for (const tool of Object.values(tools)) {
        for (const text of staticText(tool)) {
          for (const mentioned of mentionedTools(text))
            expect(Object.keys(tools), `${tool.name} names ${mentioned}: "${text}"`).toContain(mentioned);
        }
      }
    });
  }

  it("bash's background, timeout and cut-output results name only tools its sets hold", async () => {
    const { bash } = createTools({ context, names: ["bash"] });
    const results = [
      await invokeTool(bash, { command: "echo started", background: true }),
      await invokeTool(bash, { command: "sleep 5", timeout: 0.5 }),
      await invokeTool(bash, { command: "seq 1 5000" }),
    ];
    const mentioned = new Set(results.flatMap((outcome) => mentionedTools(textOf(outcome))));
    expect([...mentioned].sort()).toEqual(["jobs", "read"]);
    // Every set holding bash holds these two.
    for (const set of [createCodingTools({ context }), createAllTools({ context })]) {
      expect(Object.keys(set)).toEqual(expect.arrayContaining([...mentioned]));
    }
  });
  it("runtime hints of file tools name only tools of the set", async () => {
    await mkdir(join(dir, "sub"), { recursive: true });
    await writeFile(
      join(dir, "blob.bin"),
      Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(2048)]),
    );
    await writeFile(join(dir, "long.txt"), `${"x".repeat(60 * 1024)}\nshort\n`);
    await writeFile(join(dir, "ctl.txt"), "plain\n\u001b[31mred\u001b[0m AKIAIOSFODNN7EXAMPLE\n");
    const texts = async (set: Record<string, AnyAgentTool>, calls: [string, unknown][]) => {
      const out: string[] = [];
      for (const [name, args] of calls) {
        const tool = set[name];
        if (tool) out.push(textOf(await invokeTool(tool, args)));
      }
      return out;
    };
    const fileCalls: [string, unknown][] = [
      ["read", { path: "sub" }],
      ["read", { path: "blob.bin" }],
      ["read", { path: "long.txt" }],
      ["read", { path: "ctl.txt" }],
      ["read", { path: "missing.txt" }],
      ["edit", { path: "sub", edits: [{ oldText: "a", newText: "b" }] }],
      ["edit", { path: "missing.txt", edits: [{ oldText: "a", newText: "b" }] }],
      ["write", { path: "sub", content: "x" }],
      ["ls", { path: "long.txt" }],
      ["ls", { path: "missing-dir" }],
      ["grep", { pattern: "red", path: "ctl.txt" }],
      ["powershell", { command: "Get-Date" }],
    ];
    const sets: Record<string, AnyAgentTool>[] = [
      createReadOnlyTools({ context }),
      createCodingTools({ context }),
      createTools({ context, names: ["read"] }),
      createTools({ context, names: ["ls", "edit", "write"] }),
      createTools({ context, names: ["powershell"] }),
    ];
    for (const set of sets) {
      for (const text of await texts(set, fileCalls)) {
        for (const mentioned of mentionedTools(text))
          expect(Object.keys(set), `names ${mentioned}: "${text}"`).toContain(mentioned);
      }
    }
    // With the tools at hand, the hints still name them.
    const all = createAllTools({ context });
    const [directory, binary] = await texts(all, fileCalls.slice(0, 2));
    expect(directory).toContain("Use ls to list it.");
    expect(binary).toContain("Inspect it with bash");
  });
});
