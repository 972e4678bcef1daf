import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { invokeTool } from "../src/invoke-tool.js";
import { misspeltFieldProblems, nearestName } from "../src/misspelt-fields.js";
import type { AgentTool } from "../src/tool.js";

const grepParams = Type.Object({
  pattern: Type.String(),
  path: Type.Optional(Type.String()),
  glob: Type.Optional(Type.String()),
  context: Type.Optional(Type.Integer({ minimum: 0 })),
});

const editParams = Type.Object({
  path: Type.String(),
  edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() }), { minItems: 1 }),
});

/** A tool that counts its runs and echoes the arguments it ran with. */
function echoTool<T extends typeof grepParams | typeof editParams>(name: string, parameters: T) {
  const runs: unknown[] = [];
  const tool: AgentTool<T, unknown> = {
    name,
    label: name,
    description: "echo",
    parameters,
    async execute(_id, params) {
      runs.push(params);
      return { content: [{ type: "text", text: "ran" }], details: params };
    },
  };
  return { tool, runs };
}

const textOf = (outcome: { content: { type: string; text?: string }[] }) =>
  outcome.content.map((part) => part.text ?? "").join("\n");

describe("invokeTool: misspelt fields", () => {
  it("refuses a misspelt required field with the field it most likely means, and does not run", async () => {
    const { tool, runs } = echoTool("grep", grepParams);
    const outcome = await invokeTool(tool, { patern: "x" } as unknown);
    expect(outcome.isError).toBe(true);
    expect(outcome.errorCode).toBe("invalid_arguments");
    expect(textOf(outcome)).toContain("patern");
    expect(textOf(outcome)).toContain("Did you mean `pattern`?");
    expect(runs).toEqual([]);
  });

  it("refuses a misspelt optional field instead of running without it", async () => {
    const { tool, runs } = echoTool("grep", grepParams);
    const outcome = await invokeTool(tool, { pattern: "x", glbo: "*.ts" } as unknown);
    expect(outcome.errorCode).toBe("invalid_arguments");
    expect(textOf(outcome)).toContain("Did you mean `glob`?");
    expect(runs).toEqual([]);
  });

  it("finds a field sent in another case or with separators, inside a list of objects", async () => {
    const { tool } = echoTool("edit", editParams);
    const outcome = await invokeTool(tool, {
      path: "a.ts",
      edits: [
        { oldText: "a", newText: "b" },
        { old_text: "c", newText: "d" },
      ],
    } as unknown);
    expect(outcome.errorCode).toBe("invalid_arguments");
    expect(textOf(outcome)).toContain("edits[1].old_text");
    expect(textOf(outcome)).toContain("Did you mean `edits[1].oldText`?");
  });

  it("still drops a stray field that is near no declared field, or near one that was sent", async () => {
    const { tool, runs } = echoTool("grep", grepParams);
    const stray = await invokeTool(tool, { pattern: "x", explanation: "why" } as unknown);
    expect(stray.isError).toBe(false);
    const both = await invokeTool(tool, { pattern: "x", patern: "y" } as unknown);
    expect(both.isError).toBe(false);
    expect(runs).toEqual([{ pattern: "x" }, { pattern: "x" }]);
  });

  it("leaves schemas that allow additional properties alone", () => {
    const open = Type.Object({ pattern: Type.String() }, { additionalProperties: true });
    expect(misspeltFieldProblems(open, { patern: "x" })).toEqual([]);
  });
});

describe("nearestName", () => {
  it.each([
    ["patern", "pattern"],
    ["glbo", "glob"],
    ["Path", "path"],
    ["old_text", "oldText"],
    ["contxt", "context"],
  ])("reads %s as %s", (key, meant) => {
    expect(nearestName(key, ["pattern", "path", "glob", "context", "oldText"])).toBe(meant);
  });

  it("answers nothing for a far name or a tie", () => {
    expect(nearestName("explanation", ["pattern", "path"])).toBeUndefined();
    expect(nearestName("pat", ["path", "part"])).toBeUndefined();
  });
});
