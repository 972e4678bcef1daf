/**
 * The syntax check after apply_patch, for each file the patch wrote, on the rules of edit and
 * write: a warning when a file that parsed no longer does (its line shown), none for a file that
 * was already broken, a warning for a new file that does not parse; the change is kept either way.
 * The corpus is edit's, each edit sent as a one-hunk patch. Real files in a temp dir.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnyAgentTool, invokeTool, type ToolOutcome } from "@tackle/agent-core";
import type { DiagnosticsEvent, ToolSession } from "@tackle/extensions";
import { wrapToolDefinition } from "@tackle/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalToolContext } from "../src/local.js";
import { createAnthropicTextEditorToolDefinition } from "../src/native/anthropic-text-editor.js";
import type { ApplyPatchDetails } from "../src/patch/apply.js";
import { createApplyPatchToolDefinition } from "../src/patch/tool.js";
import { checkSyntax } from "../src/syntax/check-syntax.js";
import { SYNTAX_CORPUS, type SyntaxCase } from "./fixtures/syntax-corpus.js";

let dir: string;
let ctx: ToolSession;
let applyPatch: AnyAgentTool;
let events: DiagnosticsEvent[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "tackle-patch-syntax-"));
  events = [];
  ctx = createLocalToolContext({ cwd: dir, diagnostics: { onEvent: (event) => events.push(event) } });
  applyPatch = wrapToolDefinition(createApplyPatchToolDefinition(), () => ctx);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (outcome: ToolOutcome) =>
  outcome.content.map((part) => (part.type === "text" ? part.text : "")).join("");
const filesOf = (outcome: ToolOutcome) => (outcome.details as ApplyPatchDetails).files;

/** The corpus edit as a hunk: the whole lines oldText spans, removed, and the same lines with newText. */
function hunkOf(entry: SyntaxCase, content: string): string[] {
  const at = content.indexOf(entry.oldText);
  const start = content.lastIndexOf("\n", at - 1) + 1;
  const lineBreak = content.indexOf("\n", at + entry.oldText.length - 1);
  const block = content.slice(start, lineBreak === -1 ? content.length : lineBreak + 1);
  const replaced = block.replace(entry.oldText, entry.newText);
  const linesOf = (text: string) => text.replace(/\n$/, "").split("\n");
  return ["@@", ...linesOf(block).map((line) => `-${line}`), ...linesOf(replaced).map((line) => `+${line}`)];
}

const patchOf = (...sections: string[][]) =>
  ["*** Begin Patch", ...sections.flat(), "*** End Patch"].join("\n");

describe("syntax check after apply_patch: edit's corpus", () => {
  for (const entry of SYNTAX_CORPUS) {
    it(`${entry.name}: ${entry.breaksAt === undefined ? "no warning" : `warns at line ${entry.breaksAt}`}`, async () => {
      await writeFile(join(dir, entry.file), entry.content);
      expect((await checkSyntax(entry.file, entry.content)).status).toBe("parses");
      const outcome = await invokeTool(applyPatch, {
        input: patchOf([`*** Update File: ${entry.file}`, ...hunkOf(entry, entry.content)]),
      });
      expect(outcome.isError, text(outcome)).toBe(false);
      const feedback = filesOf(outcome)[0]?.feedback;
      if (entry.breaksAt === undefined) {
        expect(feedback?.codes).toEqual([]);
        expect(feedback?.syntax.status).toBe("parses");
        expect(text(outcome)).not.toContain("Warning:");
        return;
      }
      expect(feedback?.codes).toEqual(["syntax_broken"]);
      expect(feedback?.syntax.problems?.[0]?.line).toBe(entry.breaksAt);
      expect(text(outcome)).toContain("no longer parses");
      expect(text(outcome)).toContain(`line ${entry.breaksAt}, column`);
      // The change is kept: the model asked for it.
      expect(await readFile(join(dir, entry.file), "utf8")).toContain(entry.newText);
    });
  }

  it("says nothing about a file that was already broken", async () => {
    const entry = SYNTAX_CORPUS.find((c) => c.breaksAt !== undefined) as SyntaxCase;
    const broken = entry.content.replace(entry.oldText, entry.newText);
    await writeFile(join(dir, entry.file), broken);
    const lines = broken.split("\n");
    const last = lines.at(-2) as string;
    const outcome = await invokeTool(applyPatch, {
      input: patchOf([
        `*** Update File: ${entry.file}`,
        "@@",
        ` ${last}`,
        "+// one more line",
        "*** End of File",
      ]),
    });
    expect(outcome.isError, text(outcome)).toBe(false);
    const feedback = filesOf(outcome)[0]?.feedback;
    expect(feedback?.codes).toEqual([]);
    expect(feedback?.syntax.status).toBe("still_broken");
    expect(text(outcome)).not.toContain("Warning:");
  });
});

describe("syntax check after apply_patch: several files", () => {
  it("checks each written file: the broken update and the new file warn, the good one does not; one event each", async () => {
    await writeFile(join(dir, "ok.json"), '{"a": 1}\n');
    await writeFile(join(dir, "app.py"), "def f():\n    return 1\n");
    await writeFile(join(dir, "gone.py"), "x = 1\n");
    const outcome = await invokeTool(applyPatch, {
      input: patchOf(
        ["*** Update File: ok.json", "@@", '-{"a": 1}', '+{"a": 2}'],
        ["*** Update File: app.py", "@@", "-def f():", "+def f(:"],
        ["*** Add File: new.py", "+def g(:", "+    pass"],
        ["*** Delete File: gone.py"],
      ),
    });
    expect(outcome.isError, text(outcome)).toBe(false);
    const byPath = new Map(filesOf(outcome).map((file) => [file.path, file]));
    expect(byPath.get("ok.json")?.feedback?.codes).toEqual([]);
    expect(byPath.get("app.py")?.feedback?.codes).toEqual(["syntax_broken"]);
    expect(byPath.get("new.py")?.feedback?.codes).toEqual(["syntax_broken"]);
    expect(byPath.get("gone.py")?.feedback).toBeUndefined();
    expect(text(outcome)).toContain("app.py no longer parses as Python");
    expect(text(outcome)).toContain("new.py does not parse as Python");
    expect(text(outcome)).not.toContain("ok.json no longer parses");
    expect(events.map((event) => [event.toolName, event.path.slice(dir.length + 1), event.codes])).toEqual([
      ["apply_patch", "ok.json", []],
      ["apply_patch", "app.py", ["syntax_broken"]],
      ["apply_patch", "new.py", ["syntax_broken"]],
    ]);
  });
});

describe("syntax check after the text editor's insert (planned as a patch)", () => {
  it("warns when an insert breaks a file that parsed, and names the editor in the event", async () => {
    await writeFile(join(dir, "app.py"), "def f():\n    return 1\n");
    const editor = wrapToolDefinition(createAnthropicTextEditorToolDefinition(), () => ctx);
    const outcome = await invokeTool(editor, {
      command: "insert",
      path: "app.py",
      insert_line: 1,
      insert_text: "    if True",
    });
    expect(outcome.isError, text(outcome)).toBe(false);
    expect(text(outcome)).toContain("Inserted 1 line after line 1 of app.py.");
    expect(text(outcome)).toContain("app.py no longer parses as Python");
    expect(filesOf(outcome)[0]?.feedback?.codes).toEqual(["syntax_broken"]);
    expect(events.map((event) => event.toolName)).toEqual(["str_replace_based_edit_tool"]);
    expect(await readFile(join(dir, "app.py"), "utf8")).toBe("def f():\n    if True\n    return 1\n");
  });
});
