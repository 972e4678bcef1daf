/**
 * Where the call as sent matches nowhere but exactly one other reading does, edit applies it and
 * names the reading: oldText copied with line-number prefixes from other listings, texts
 * JSON-escaped twice, and a later edit written against the result of an earlier one.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { invokeTool, isToolError } from "@tackle/agent-core";
import { wrapToolDefinition } from "@tackle/extensions";
import { describe, expect, it } from "vitest";
import { type EditRequest, planEdits } from "../src/edit/plan.js";
import { createLocalToolContext } from "../src/local.js";
import { createEditToolDefinition } from "../src/tools/edit.js";

const plan = (text: string, edits: EditRequest[]) => planEdits(text, edits, { path: "f.py" });

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isToolError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a ToolError");
}

const FILE = "def f(x):\n    y = x + 1\n    return y\n\nprint(f(2))\n";

describe("readings: copied line-number prefixes", () => {
  for (const [shape, prefix] of [
    ["L7: ", (n: number) => `L${n}: `],
    ["7| ", (n: number) => `${n}| `],
    ["7: ", (n: number) => `${n}: `],
    ["   7\\t (read's own)", (n: number) => `${String(n).padStart(6)}\t`],
  ] as const) {
    it(`strips ${shape} prefixes from oldText and newText`, () => {
      const oldText = ["    y = x + 1", "    return y"].map((line, i) => prefix(i + 2) + line).join("\n");
      const newText = ["    y = x + 2", "    return y"].map((line, i) => prefix(i + 2) + line).join("\n");
      const result = plan(FILE, [{ oldText, newText }]);
      expect(result.outcomes[0]?.matcher).toBe("fuzzy:line-numbers");
      expect(result.text).toBe(FILE.replace("x + 1", "x + 2"));
    });
  }

  it("keeps a raw match over the stripped reading (YAML keys that look like numbers)", () => {
    const yaml = "ports:\n  8080: web\n  8081: api\n";
    const result = plan(yaml, [{ oldText: "8080: web\n  8081: api", newText: "8080: web\n  8081: admin" }]);
    expect(result.outcomes[0]?.matcher).toBe("exact");
    expect(result.text).toBe("ports:\n  8080: web\n  8081: admin\n");
  });
});

describe("readings: JSON-escaped twice", () => {
  it("undoes one layer of escaping in oldText and newText when only that reading matches", () => {
    const text = 'msg = "hi"\nprint(msg)\n';
    const result = plan(text, [
      { oldText: 'msg = \\"hi\\"\\nprint(msg)', newText: 'msg = \\"bye\\"\\nprint(msg)' },
    ]);
    expect(result.outcomes[0]).toMatchObject({ matcher: "exact", reading: "unescaped" });
    expect(result.text).toBe('msg = "bye"\nprint(msg)\n');
  });

  it("matches the text as sent when the file holds the escapes itself", () => {
    const text = 'printf("a\\n");\n';
    const result = plan(text, [{ oldText: 'printf("a\\n");', newText: 'printf("b\\n");' }]);
    expect(result.outcomes[0]?.reading).toBeUndefined();
    expect(result.text).toBe('printf("b\\n");\n');
  });

  it("refuses when the unescaped reading matches nowhere either", () => {
    expect(codeOf(() => plan(FILE, [{ oldText: "zzz\\nqqq", newText: "a" }]))).toBe("no_match");
  });
});

describe("readings: sequential multi-edits", () => {
  it("applies in order when a later oldText matches only the result of an earlier edit", () => {
    const result = plan(FILE, [
      { oldText: "    y = x + 1", newText: "    y = x + 1\n    z = y * 2" },
      { oldText: "    z = y * 2\n    return y", newText: "    z = y * 2\n    return z" },
    ]);
    expect(result.text).toBe("def f(x):\n    y = x + 1\n    z = y * 2\n    return z\n\nprint(f(2))\n");
    expect(result.outcomes.map((outcome) => outcome.reading)).toEqual(["sequential", "sequential"]);
  });

  it("keeps the original-file reading when it works (edits do not see each other)", () => {
    const result = plan("a = 1\nb = 1\n", [
      { oldText: "a = 1", newText: "a = 2" },
      { oldText: "b = 1", newText: "b = 2" },
    ]);
    expect(result.outcomes.map((outcome) => outcome.reading)).toEqual([undefined, undefined]);
  });

  it("refuses when the sequential reading is not unique either", () => {
    expect(
      codeOf(() =>
        plan("a = 1\nb = 1\n", [
          { oldText: "a = 1", newText: "c = 3\nc = 3" },
          { oldText: "c = 3", newText: "d = 4" },
        ]),
      ),
    ).toBe("no_match");
  });

  it("keeps CRLF endings and says so in the tool result", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tackle-edit-seq-"));
    try {
      await writeFile(join(dir, "w.txt"), "one\r\ntwo\r\nthree\r\n");
      const ctx = createLocalToolContext({ cwd: dir });
      const edit = wrapToolDefinition(createEditToolDefinition(), () => ctx);
      const outcome = await invokeTool(edit, {
        path: "w.txt",
        edits: [
          { oldText: "two", newText: "TWO" },
          { oldText: "TWO\nthree", newText: "TWO\nTHREE" },
        ],
      });
      expect(outcome.isError).toBe(false);
      const text = (outcome.content[0] as { text: string }).text;
      expect(text).toContain("the edits were applied in order");
      expect(text).toContain("edits[1]: exact (matched in the file as the edits before it left it), line 2");
      expect(await readFile(join(dir, "w.txt"), "utf8")).toBe("one\r\nTWO\r\nTHREE\r\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
