import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool } from "@tackle/agent-core";
import { createLocalOperations } from "@tackle/operations-local";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { createToolContext } from "../src/context/create-tool-context.js";
import {
  ALL_TOOL_NAMES,
  createAllTools,
  createAvailableTools,
  createCodingTools,
  createReadOnlyTools,
  createTool,
  createToolDefinition,
} from "../src/factories.js";
import type { EditDetails } from "../src/tools/edit.js";
import type { ReadDetails, ReadParams } from "../src/tools/read.js";

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-factories-")));
  await writeFile(join(dir, "a.txt"), "one\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("factories", () => {
  it("make the named sets", () => {
    expect(createCodingTools({ cwd: dir }).map((tool) => tool.name)).toEqual([
      "read",
      "bash",
      "edit",
      "write",
    ]);
    expect(createReadOnlyTools({ cwd: dir }).map((tool) => tool.name)).toEqual([
      "read",
      "grep",
      "find",
      "ls",
    ]);
    expect(createAllTools({ cwd: dir }).map((tool) => tool.name)).toEqual([...ALL_TOOL_NAMES]);
  });

  it("infers each tool's parameters, details and options from its name (checked by tsc)", () => {
    const read = createToolDefinition("read", { maxLines: 10 });
    expectTypeOf<Parameters<typeof read.execute>[1]>().toEqualTypeOf<ReadParams>();
    expectTypeOf<Awaited<ReturnType<typeof read.execute>>["details"]>().toEqualTypeOf<ReadDetails>();
    const edit = createToolDefinition("edit");
    expectTypeOf<Awaited<ReturnType<typeof edit.execute>>["details"]>().toEqualTypeOf<EditDetails>();
    // @ts-expect-error ls takes no options
    createToolDefinition("ls", { maxLines: 10 });
    // @ts-expect-error read's options are ReadToolOptions
    createToolDefinition("read", { timeout: 5 });
    expect(read.name).toBe("read");
  });

  it("makes definitions that carry annotations and take their environment from the call's context", async () => {
    const definition = createToolDefinition("read");
    expect(definition.annotations.readOnlyHint).toBe(true);
    const ctx = createToolContext({ cwd: dir });
    const result = await definition.execute("id", { path: "a.txt" }, undefined, undefined, ctx);
    expect(result.content[0]).toEqual({
      type: "text",
      text: '<tool-output source="read">\n1\tone\n</tool-output>',
    });
  });

  it("binds the tools of one set to one context, so read records what write checks", async () => {
    const [read, , , write] = createCodingTools({ cwd: dir });
    await invokeTool(read!, { path: "a.txt" });
    await writeFile(join(dir, "a.txt"), "changed elsewhere\n");
    const refused = await invokeTool(write!, { path: "a.txt", content: "mine\n" });
    expect(refused).toMatchObject({ isError: true, errorCode: "stale_read" });
    expect(await readFile(join(dir, "a.txt"), "utf8")).toBe("changed elsewhere\n");
  });

  it("createTool asks a context factory at every call, so the environment can be swapped", async () => {
    const other = await realpath(await mkdtemp(join(tmpdir(), "tackle-factories-other-")));
    try {
      await writeFile(join(other, "b.txt"), "in other\n");
      let ctx = createToolContext({ cwd: dir });
      const ls = createTool("ls", { context: () => ctx });
      expect((await invokeTool(ls, {})).content[0]).toMatchObject({ text: expect.stringContaining("a.txt") });
      ctx = createToolContext({ cwd: other, operations: createLocalOperations() });
      expect((await invokeTool(ls, {})).content[0]).toMatchObject({
        text: '<tool-output source="ls">\nb.txt  9 B\n</tool-output>',
      });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("createAvailableTools leaves powershell out where pwsh does not run", async () => {
    const ctx = createToolContext({ cwd: dir });
    const probe = await ctx.operations.exec("command -v pwsh", {
      shell: "bash",
      cwd: dir,
      timeoutMs: 10_000,
    });
    const names = (await createAvailableTools({ context: ctx })).map((tool) => tool.name);
    expect(names.includes("powershell")).toBe(probe.status === "completed");
    expect(names).toContain("bash");
  });
});
