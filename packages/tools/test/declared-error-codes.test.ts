/**
 * Each tool declares the codes it fails with beyond the core's (`errorCodes` on its definition):
 * the declarations use the table of Tackle's tool codes, never repeat a core code, and every code
 * the tools' source throws is one a layer knows (the core's or the table's). A declared code
 * reaches the outcome; `invokeTool` turns any other into `execution_failed`.
 */
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORE_ERROR_CODES, errorCodesOf, invokeTool } from "@tackle/agent-core";
import { type AnyToolDefinition, wrapToolDefinition } from "@tackle/extensions";
import { describe, expect, it } from "vitest";
import { ALL_TOOL_NAMES, createToolDefinition } from "../src/factories.js";
import { createLocalToolContext } from "../src/local.js";
import {
  createAnthropicBashToolDefinition,
  createAnthropicTextEditorToolDefinition,
  createOpenAIApplyPatchToolDefinition,
  createOpenAIShellToolDefinition,
} from "../src/native/index.js";
import { createApplyPatchToolDefinition } from "../src/patch/tool.js";
import { TACKLE_TOOL_ERROR_CODES } from "../src/tool-error-codes.js";

const definitions: AnyToolDefinition[] = [
  ...ALL_TOOL_NAMES.map((name) => createToolDefinition(name) as AnyToolDefinition),
  createApplyPatchToolDefinition(),
  createAnthropicBashToolDefinition(),
  createAnthropicTextEditorToolDefinition(),
  createOpenAIApplyPatchToolDefinition(),
  createOpenAIShellToolDefinition(),
];

/** The codes the named tools of the set declare, as `tool:code`. */
function declared(names: (typeof ALL_TOOL_NAMES)[number][]): string[] {
  return names.flatMap((name) =>
    Object.keys(createToolDefinition(name).errorCodes ?? {}).map((code) => `${name}:${code}`),
  );
}

/** Every `.ts` file under `dir`. */
async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("declared error codes", () => {
  it("are the table's codes with the table's meanings, never a core code", () => {
    for (const code of Object.keys(TACKLE_TOOL_ERROR_CODES))
      expect(CORE_ERROR_CODES).not.toHaveProperty(code);
    for (const definition of definitions) {
      for (const [code, meaning] of Object.entries(definition.errorCodes ?? {})) {
        expect(TACKLE_TOOL_ERROR_CODES, `${definition.name}:${code}`).toHaveProperty(code, meaning);
      }
    }
  });

  it("say what each tool fails with beyond the core's codes", () => {
    expect(declared(["read"])).toEqual(["read:binary_file"]);
    expect(declared(["write"])).toEqual(["write:encoding", "write:redacted_text"]);
    expect(declared(["edit"])).toEqual([
      "edit:no_match",
      "edit:ambiguous_match",
      "edit:overlapping_edits",
      "edit:encoding",
      "edit:redacted_text",
    ]);
    // bash applies an apply_patch heredoc as a patch, so it fails the patch engine's ways too.
    expect(declared(["bash"])).toEqual(expect.arrayContaining(["bash:interactive_prompt", "bash:no_match"]));
    expect(declared(["powershell"])).toEqual(["powershell:interactive_prompt"]);
    expect(declared(["grep", "find", "ls", "jobs"])).toEqual([]);
    const patchCodes = ["no_match", "ambiguous_match", "overlapping_edits", "encoding", "redacted_text"];
    expect(Object.keys(createApplyPatchToolDefinition().errorCodes ?? {})).toEqual(patchCodes);
    expect(Object.keys(createOpenAIApplyPatchToolDefinition().errorCodes ?? {})).toEqual(patchCodes);
    expect(Object.keys(createAnthropicTextEditorToolDefinition().errorCodes ?? {})).toEqual([
      "binary_file",
      ...patchCodes,
    ]);
    for (const shell of [createAnthropicBashToolDefinition(), createOpenAIShellToolDefinition()])
      expect(shell.errorCodes).toEqual(createToolDefinition("bash").errorCodes);
  });

  it("cover every code the tools' source throws", async () => {
    const known = new Set([...Object.keys(CORE_ERROR_CODES), ...Object.keys(TACKLE_TOOL_ERROR_CODES)]);
    const thrown = new Set<string>();
    for (const file of await sourceFiles(join(import.meta.dirname, "..", "src"))) {
      const text = await readFile(file, "utf8");
      for (const match of text.matchAll(/ToolError\(\s*"([a-z_]+)"/g)) thrown.add(match[1] as string);
    }
    expect(thrown.size).toBeGreaterThan(10);
    expect([...thrown].filter((code) => !known.has(code))).toEqual([]);
  });

  it("reach the outcome only when declared", async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), "tackle-codes-")));
    const context = createLocalToolContext({ cwd: dir });
    try {
      await writeFile(join(dir, "a.bin"), Buffer.from([0, 1, 2, 255, 0, 7]));
      const read = createToolDefinition("read");
      const declaring = wrapToolDefinition(read, () => context);
      expect(await invokeTool(declaring, { path: "a.bin" })).toMatchObject({ errorCode: "binary_file" });
      const { errorCodes: _, ...undeclared } = read;
      const outcome = await invokeTool(
        wrapToolDefinition(undeclared, () => context),
        { path: "a.bin" },
      );
      expect(outcome).toMatchObject({
        errorCode: "execution_failed",
        details: { undeclaredCode: "binary_file" },
      });
      expect(outcome.content[0]).toMatchObject({ text: expect.stringContaining("a.bin is a binary file") });
      expect(errorCodesOf(declaring)).toMatchObject({ binary_file: TACKLE_TOOL_ERROR_CODES.binary_file });
    } finally {
      await context.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
