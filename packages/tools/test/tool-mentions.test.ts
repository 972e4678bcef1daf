/**
 * A model told to use a tool it was not given tries it anyway (bash's results said "use the jobs
 * tool" while no set held jobs). Every tool the model-facing text of a set names is in that set.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
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
  createTool,
  createTools,
} from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";
import { namesNextStep } from "./support/next-step.js";

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
    // Not valid UTF-8: edit cannot change it without touching bytes it was not asked to.
    await writeFile(join(dir, "latin1.txt"), Buffer.from("caf\xe9 au lait\n", "latin1"));
    await symlink("loop-b", join(dir, "loop-a")).catch(() => {});
    await symlink("loop-a", join(dir, "loop-b")).catch(() => {});
    const outcomes = async (set: Record<string, AnyAgentTool>, calls: [string, unknown][]) => {
      const out: ToolOutcome[] = [];
      for (const [name, args] of calls) {
        const tool = set[name];
        if (tool) out.push(await invokeTool(tool, args));
      }
      return out;
    };
    const texts = async (set: Record<string, AnyAgentTool>, calls: [string, unknown][]) =>
      (await outcomes(set, calls)).map(textOf);
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
      ["edit", { path: "latin1.txt", edits: [{ oldText: "au", newText: "with" }] }],
      ["edit", { path: "ctl.txt", edits: [{ oldText: "plain [REDACTED:assignment]", newText: "x" }] }],
      ["edit", { path: "ctl.txt", edits: [{ oldText: "plain", newText: "KEY=[REDACTED:assignment]" }] }],
      ["write", { path: "new.env", content: "TOKEN=[REDACTED:assignment]\n" }],
      ["read", { path: "loop-a" }],
      ["edit", { path: "loop-a", edits: [{ oldText: "a", newText: "b" }] }],
    ];
    const sets: Record<string, AnyAgentTool>[] = [
      createReadOnlyTools({ context }),
      createCodingTools({ context }),
      createTools({ context, names: ["read"] }),
      createTools({ context, names: ["ls", "edit", "write"] }),
      createTools({ context, names: ["powershell"] }),
      createTools({ context, names: ["read", "edit", "write"] }),
      createTools({ context, names: ["edit"] }),
      // Made one by one, each told the others (the set a host assembles itself).
      {
        read: createTool("read", { context, set: ["edit", "write"] }),
        edit: createTool("edit", { context, set: ["read", "write"] }),
        write: createTool("write", { context, set: ["read", "edit"] }),
      },
    ];
    for (const set of sets) {
      for (const outcome of await outcomes(set, fileCalls)) {
        const text = textOf(outcome);
        for (const mentioned of mentionedTools(text))
          expect(Object.keys(set), `names ${mentioned}: "${text}"`).toContain(mentioned);
        // Without the tool a hint would name, the text still says what to do.
        if (outcome.isError) expect(namesNextStep(text), `no next step: "${text}"`).toBe(true);
      }
    }
    // With the tools at hand, the hints still name them.
    const all = createAllTools({ context });
    const [directory, binary] = await texts(all, fileCalls.slice(0, 2));
    expect(directory).toContain("Use ls to list it.");
    expect(binary).toContain("Inspect it with bash");
    const [undecodable, oldPlaceholder, newPlaceholder, writePlaceholder] = await texts(
      all,
      fileCalls.slice(12, 16),
    );
    expect(undecodable).toContain("Use bash for this file.");
    expect(oldPlaceholder).toContain("or change that line with bash.");
    expect(newPlaceholder).toContain("or change them with bash.");
    expect(writePlaceholder).toContain(
      "Change the lines with edit instead (a placeholder copied into oldText and newText keeps its secret), or use bash.",
    );
    // A set naming a tool that does not exist is a host's typo: refused at creation.
    expect(() => createTool("edit", { context, set: ["bsh" as "bash"] })).toThrow(/unknown tool name "bsh"/);
  });
});
