/**
 * Elision placeholders in newText never delete code: a clear one standing alone for a run of
 * oldText lines keeps those lines (and the result says so); any other is refused naming it and
 * the lines it would delete. Real code holding `...` that deletes nothing is applied as written.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, isToolError } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { describe, expect, it } from "vitest";
import { elisionKind } from "../src/edit/elisions.js";
import { type EditRequest, planEdits } from "../src/edit/plan.js";
import { createLocalToolContext } from "../src/local.js";
import { createEditToolDefinition } from "../src/tools/edit.js";

const plan = (text: string, edits: EditRequest[]) => planEdits(text, edits, { path: "f.ts" });

function refusal(fn: () => unknown): { code: string; message: string; details: unknown } {
  try {
    fn();
  } catch (error) {
    if (isToolError(error)) return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error("expected a ToolError");
}

const FILE = [
  "function setup() {",
  "  const a = load();",
  "  const b = parse(a);",
  "  check(b);",
  "  return b;",
  "}",
  "",
].join("\n");
const OLD = FILE.trimEnd();

describe("placeholders in newText", () => {
  it("keeps the oldText lines a lone placeholder stands for, and says so", () => {
    const newText = [
      "function setup() {",
      "  // ... existing code ...",
      "  check(b);",
      "  log(b);",
      "  return b;",
      "}",
    ].join("\n");
    const result = plan(FILE, [{ oldText: OLD, newText }]);
    expect(result.text).toBe(FILE.replace("  check(b);", "  check(b);\n  log(b);"));
    expect(result.outcomes[0]?.elisions).toEqual([
      {
        placeholder: "// ... existing code ...",
        newTextLine: 2,
        dropped: ["  const a = load();", "  const b = parse(a);"],
      },
    ]);
  });

  it("refuses a placeholder beside other new lines, naming it and the lines it would delete", () => {
    const newText = ["function setup() {", "  const a = loadFast();", "  # rest unchanged", "}"].join("\n");
    const error = refusal(() => plan(FILE, [{ oldText: OLD, newText }]));
    expect(error.code).toBe("invalid_arguments");
    expect(error.message).toContain('newText line 3 is the placeholder "# rest unchanged"');
    expect(error.message).toContain(
      '"  const a = load();", "  const b = parse(a);", "  check(b);", … 1 more',
    );
    expect(error.message).toContain("would delete them from f.ts");
    expect(error.details).toMatchObject({ reason: "placeholder", placeholder: "# rest unchanged" });
  });

  it("refuses a bare ... or [...] (real code in some languages) where lines would be deleted", () => {
    for (const placeholder of ["  ...", "  [...]", "  …"]) {
      const newText = ["function setup() {", placeholder, "  return b;", "}"].join("\n");
      expect(refusal(() => plan(FILE, [{ oldText: OLD, newText }])).message).toContain("placeholder");
    }
  });

  it("refuses a placeholder that stands for every line it would change", () => {
    const error = refusal(() =>
      plan(FILE, [{ oldText: OLD, newText: "function setup() {\n  /* ... */\n}" }]),
    );
    expect(error.message).toContain('the placeholder "/* ... */"');
  });

  it("recognises elisions across comment syntaxes", () => {
    for (const line of [
      "// ... existing code ...",
      "# rest unchanged",
      "/* ... */",
      "<!-- rest of file unchanged -->",
      "-- ...",
      "; ... other methods",
      "% rest of the document unchanged",
      "{/* ... */}",
      "# ... (rest of the function)",
      "// …rest of the code remains the same",
      "// remaining lines unchanged",
    ]) {
      expect(elisionKind(line), line).toBe("keep");
    }
    for (const line of ["...", "[...]", "[…]", "(...)"]) expect(elisionKind(line), line).toBe("refuse");
    for (const line of [
      "...args,",
      "foo(...rest);",
      "def f(*args): ...",
      'print("...")',
      "// TODO: handle ... later when the API settles",
      "// keep the cache warm",
      "# Existing users keep their settings after the migration to the new store",
      "x = [...a, ...b]",
    ]) {
      expect(elisionKind(line), line).toBeUndefined();
    }
  });

  it("applies real code with ... as written when it deletes nothing", () => {
    const text = "def f(x):\n    return x\n";
    const result = plan(text, [
      { oldText: "def f(x):\n    return x", newText: "def f(x):\n    return x\n\ndef g(*args):\n    ..." },
    ]);
    expect(result.text).toBe("def f(x):\n    return x\n\ndef g(*args):\n    ...\n");
    const js = plan("const all = [a];\n", [
      { oldText: "const all = [a];", newText: "const all = [...a, ...b];" },
    ]);
    expect(js.text).toBe("const all = [...a, ...b];\n");
  });

  it("applies a placeholder the file itself already has", () => {
    const text = "x = 1\n# ...\ny = 2\n";
    const result = plan(text, [{ oldText: "x = 1\n# ...\ny = 2", newText: "# ...\ny = 3" }]);
    expect(result.text).toBe("# ...\ny = 3\n");
  });

  it("reports the kept lines in the edit tool's result", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tackle-edit-elide-"));
    try {
      await writeFile(join(dir, "s.ts"), FILE);
      const ctx = createLocalToolContext({ cwd: dir });
      const edit = wrapToolDefinition(createEditToolDefinition(), () => ctx);
      const newText =
        "function setup() {\n  // ... existing code ...\n  check(b);\n  log(b);\n  return b;\n}";
      const outcome = await invokeTool(edit, { path: "s.ts", edits: [{ oldText: OLD, newText }] });
      expect(outcome.isError).toBe(false);
      const text = (outcome.content[0] as { text: string }).text;
      expect(text).toContain(
        'edits[0]: exact, line 1; "// ... existing code ..." stood for 2 lines of oldText, which were kept',
      );
      expect(await readFile(join(dir, "s.ts"), "utf8")).toBe(
        FILE.replace("  check(b);", "  check(b);\n  log(b);"),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
