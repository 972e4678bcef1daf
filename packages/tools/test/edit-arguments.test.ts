import { prepareToolArguments } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { describe, expect, it } from "vitest";
import { escapeRawControlCharacters, repairEditArguments } from "../src/edit/repair-arguments.js";
import { createLocalToolContext } from "../src/local.js";
import { createEditToolDefinition } from "../src/tools/edit.js";

const expected = { path: "a.ts", edits: [{ oldText: "a", newText: "b" }] };
const edit = wrapToolDefinition(createEditToolDefinition(), () => createLocalToolContext({ cwd: "/tmp" }));

describe("edit prepareArguments repairs what models send", () => {
  it("accepts edits as a JSON string", () => {
    expect(repairEditArguments({ path: "a.ts", edits: '[{"oldText":"a","newText":"b"}]' })).toEqual(expected);
  });

  it("accepts a single edit object instead of an array", () => {
    expect(repairEditArguments({ path: "a.ts", edits: { oldText: "a", newText: "b" } })).toEqual(expected);
  });

  it("accepts an array of JSON strings", () => {
    expect(repairEditArguments({ path: "a.ts", edits: ['{"oldText":"a","newText":"b"}'] })).toEqual(expected);
  });

  it("accepts legacy top-level oldText/newText", () => {
    expect(repairEditArguments({ path: "a.ts", oldText: "a", newText: "b" })).toEqual(expected);
  });

  it("accepts old_string/new_string/replace_all and file_path", () => {
    expect(
      repairEditArguments({ file_path: "a.ts", old_string: "a", new_string: "b", replace_all: true }),
    ).toEqual({
      path: "a.ts",
      edits: [{ oldText: "a", newText: "b", replaceAll: true }],
    });
  });

  it("accepts snake_case keys inside edits", () => {
    expect(repairEditArguments({ path: "a.ts", edits: [{ old_string: "a", new_string: "b" }] })).toEqual(
      expected,
    );
  });

  it("repairs JSON strings that carry raw newlines and tabs", () => {
    const raw = '[{"oldText":"if (x) {\n\treturn 1;\n}","newText":"if (x) {\n\treturn 2;\n}"}]';
    expect(() => JSON.parse(raw)).toThrow();
    expect(repairEditArguments({ path: "a.ts", edits: raw })).toEqual({
      path: "a.ts",
      edits: [{ oldText: "if (x) {\n\treturn 1;\n}", newText: "if (x) {\n\treturn 2;\n}" }],
    });
    expect(escapeRawControlCharacters('{"a":"x\ny"}\n')).toBe('{"a":"x\\ny"}\n');
  });

  it("accepts the whole argument object as a JSON string", () => {
    expect(repairEditArguments(JSON.stringify(expected))).toEqual(expected);
  });

  it("passes odd input through unchanged instead of throwing", () => {
    expect(repairEditArguments(42)).toBe(42);
    expect(repairEditArguments({ path: "a.ts", edits: "not json" })).toEqual({
      path: "a.ts",
      edits: "not json",
    });
  });

  it("validates the repaired shape through the tool's own prepare step", () => {
    const prepared = prepareToolArguments(edit, { file_path: "a.ts", old_string: "a", new_string: "b" });
    expect(prepared.ok).toBe(true);
    const broken = prepareToolArguments(edit, { path: "a.ts", edits: [] });
    expect(broken.ok).toBe(false);
  });
});
