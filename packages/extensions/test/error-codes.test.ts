import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Type } from "@sinclair/typebox";
import { invokeTool, ToolError } from "@tackle/agent-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineTool } from "../src/define-tool.js";
import { createToolDefinitionFromAgentTool, wrapToolDefinition } from "../src/wrap-tool-definition.js";
import { createTestContext } from "./support/context.js";

/** Fails with `code` (its own `unknown_person`, or another one) when asked to. */
const lookup = defineTool({
  name: "lookup",
  label: "Lookup",
  description: "Looks someone up.",
  annotations: { readOnlyHint: true },
  parameters: Type.Object({ name: Type.String(), failWith: Type.Optional(Type.String()) }),
  errorCodes: { unknown_person: "Nobody of that name is known." },
  async execute(_id, { name, failWith }) {
    if (failWith !== undefined) throw new ToolError(failWith, `Nobody is called ${name}. Ask the user.`);
    return { content: [{ type: "text", text: `found ${name}` }], details: {} };
  },
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "tackle-ext-codes-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a definition's own error codes", () => {
  it("are kept by wrapToolDefinition and reach the outcome", async () => {
    const tool = wrapToolDefinition(lookup, () => createTestContext(dir));
    expect(tool.errorCodes).toEqual({ unknown_person: "Nobody of that name is known." });
    expect(await invokeTool(tool, { name: "Ada", failWith: "unknown_person" })).toMatchObject({
      isError: true,
      errorCode: "unknown_person",
      content: [{ text: "Nobody is called Ada. Ask the user." }],
    });
  });

  it("make a code the definition did not declare execution_failed, naming the code", async () => {
    const tool = wrapToolDefinition(lookup, () => createTestContext(dir));
    expect(await invokeTool(tool, { name: "Ada", failWith: "unknown_persn" })).toMatchObject({
      isError: true,
      errorCode: "execution_failed",
      details: { undeclaredCode: "unknown_persn" },
      content: [{ text: "Nobody is called Ada. Ask the user." }],
    });
  });

  it("survive the way back from an AgentTool to a definition", () => {
    const tool = wrapToolDefinition(lookup, () => createTestContext(dir));
    const plain = { ...tool };
    expect(createToolDefinitionFromAgentTool(plain).errorCodes).toEqual(lookup.errorCodes);
  });
});
