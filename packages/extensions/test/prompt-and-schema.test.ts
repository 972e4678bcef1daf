import { Type } from "@sinclair/typebox";
import type { AgentTool } from "@tackle/agent-core";
import { describe, expect, it } from "vitest";
import { exportToolSchemas, toJsonSchema } from "../src/json-schema.js";
import { buildSystemPrompt } from "../src/system-prompt.js";
import { wrapToolDefinition } from "../src/wrap-tool-definition.js";
import { createTestContext } from "./support/context.js";
import { echoDefinition } from "./support/tools.js";

const plain: AgentTool = {
  name: "plain",
  label: "Plain",
  description: "A plain agent tool.\nMore details.",
  parameters: Type.Object({ n: Type.Optional(Type.Integer()) }),
  execute: async () => ({ content: [], details: {} }),
};

describe("buildSystemPrompt", () => {
  it("lists active tools by snippet (or first description line) and deduplicates guidelines", () => {
    const prompt = buildSystemPrompt({
      base: "You are a coding agent.",
      tools: [
        echoDefinition("echo"),
        wrapToolDefinition(echoDefinition("shout"), () => createTestContext("/")),
        plain,
      ],
      guidelines: ["Prefer short texts.", "Be exact."],
    });
    expect(prompt).toBe(
      [
        "You are a coding agent.",
        "",
        "Available tools:",
        "- echo: Echo text back",
        "- shout: Echo text back",
        "- plain: A plain agent tool.",
        "",
        "Guidelines:",
        "- Prefer short texts.",
        "- Use echo only for tests.",
        "- Use shout only for tests.",
        "- Be exact.",
      ].join("\n"),
    );
  });

  it("leaves out guidelines of tools that are not active", () => {
    expect(buildSystemPrompt({ tools: [plain] })).toBe("Available tools:\n- plain: A plain agent tool.");
  });
});

describe("JSON Schema export", () => {
  it("exports plain JSON Schema without TypeBox's symbol markers", () => {
    const schema = Type.Object({
      path: Type.String({ description: "File" }),
      limit: Type.Optional(Type.Integer({ minimum: 1 })),
    });
    const json = toJsonSchema(schema);
    expect(json).toEqual({
      type: "object",
      properties: { path: { type: "string", description: "File" }, limit: { type: "integer", minimum: 1 } },
      required: ["path"],
    });
    expect(Object.getOwnPropertySymbols(json)).toEqual([]);
    expect(Object.getOwnPropertySymbols(json.properties as object)).toEqual([]);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it("exports definitions and wrapped tools with their annotations", () => {
    const wrapped = wrapToolDefinition(echoDefinition("shout"), () => createTestContext("/"));
    const exported = exportToolSchemas([echoDefinition(), wrapped, plain]);
    expect(exported.map((t) => [t.name, t.annotations])).toEqual([
      ["echo", { readOnlyHint: true }],
      ["shout", { readOnlyHint: true }],
      ["plain", undefined],
    ]);
    expect(exported[2]?.parameters).toEqual({ type: "object", properties: { n: { type: "integer" } } });
  });
});
